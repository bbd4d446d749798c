/**
 * The board in a real browser (bench rows g to j, from the board and task-panel work), on the bench's
 * 10,000-task project:
 *   g  board load: navigation → the first page of every column visible, against the same columns'
 *      data fetched with plain `fetch` by a page of the same origin (p50 of interleaved loads, ≤ 1.5×);
 *   h  DOM size of that board (≤ 1,400 nodes);
 *   i  long tasks (over 50 ms, Long Tasks API) while a card is dragged across the board (none), and
 *   i4 the same with Chromium's CPU throttled 4× (none);
 *   j  the board route's JavaScript, gzipped, against a minimal Vite + React app (≤ 2×);
 *   m  the first card on Slow 3G with the service worker warm, against cold (web-slow-network.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { readKeys } from '../local/keys.ts';
import { launchBrowser } from '../tests/support/browser.ts';
import type { BenchStack } from './bench-stack.ts';
import { latencyOf } from './latency.ts';
import { SEEDED_STATUSES } from './seed.ts';
import { buildMinimalReactApp, buildTasklaneWeb, gzippedBytes, type BuiltApp } from './web-apps.ts';
import { firstCardOnSlow3g } from './web-slow-network.ts';
import type { WebRow } from './web-rows.ts';

/** What the board renders (features/tasks/components/board): a column per status, a card per task. */
const COLUMN = (status: string) => `[data-column="${status}"]`;
const CARD = '[data-task-key]';
/** A card once the board's drag-and-drop code has loaded and made it sortable. */
const DRAGGABLE_CARD = `${CARD}[aria-roledescription="sortable"]`;
/** A column folded to its name and count (Done and Canceled, until opened): it shows no cards. */
const FOLDED_COUNT = (status: string) =>
  `[data-column="${status}"][data-collapsed] [data-testid="count-${status}"]`;
const BASELINE_PAGE = 'bench-plain-fetch.html';
const READY_TIMEOUT_MS = 60_000;

/** The little of the browser's globals the functions run in the page use (this project has no DOM types). */
interface InPage {
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    getElementsByTagName(name: string): { length: number };
  };
  performance: { now(): number };
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => {
    observe(options: { type: string }): void;
  };
  doneAt?: number;
  longTasks?: number[];
}

export interface WebBenchOptions {
  /** Board loads measured, each followed by a baseline load. */
  loads: number;
  /** Row l: moves timed on another person's board (after a few untimed ones). */
  moves: number;
  /** Row m: loads on Slow 3G, cold and warm each. */
  slowLoads: number;
}

export async function measureBoardInBrowser(
  stack: BenchStack,
  options: WebBenchOptions,
  progress: (line: string) => void,
): Promise<WebRow[]> {
  const keys = await readKeys(stack.standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  const outDir = await mkdtemp(join(tmpdir(), 'tasklane-bench-web-'));
  let app: BuiltApp | undefined;
  let browser: Browser | undefined;
  try {
    progress('building the web app and a minimal Vite + React app…');
    app = await buildTasklaneWeb(
      outDir,
      { supabaseUrl: stack.standIn.apiUrl, anonKey: keys.anonKey },
      stack.standIn.ports.web,
    );
    const minimalBytes = await gzippedBytes(await buildMinimalReactApp());
    await writeFile(join(outDir, BASELINE_PAGE), BASELINE_HTML);
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, app.url, stack.seeded.member);
    const boardUrl = `${app.url}/w/${stack.seeded.slug}/p/${stack.seeded.big.key}`;

    progress('opening the board once to see what it loads…');
    const firstLoad = await recordLoad(page, boardUrl);
    const bundleBytes = await gzippedBytes(firstLoad.scripts.map((path) => join(outDir, path)));
    const nodes = await page.evaluate(
      () => (globalThis as unknown as InPage).document.getElementsByTagName('*').length,
    );

    progress(`board load: ${options.loads} loads of the board and of plain fetch, taking turns…`);
    const baselineUrl = `${app.url}/${BASELINE_PAGE}#${encodeURIComponent(
      JSON.stringify({ token: stack.accessToken, urls: firstLoad.apiCalls }),
    )}`;
    const boardMs: number[] = [];
    const plainMs: number[] = [];
    for (let round = 0; round < options.loads; round += 1) {
      boardMs.push(await boardReadyAt(page, boardUrl));
      plainMs.push(await plainFetchDoneAt(page, baselineUrl));
    }

    progress('dragging a card across the board, then again with the CPU throttled 4×…');
    await boardReadyAt(page, boardUrl);
    const longTasks = await longTasksWhileDragging(page);
    const cdp = await page.context().newCDPSession(page);
    await boardReadyAt(page, boardUrl);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const longTasksThrottled = await longTasksWhileDragging(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    progress(`first card on Slow 3G: ${options.slowLoads} cold loads taking turns with as many warm ones…`);
    const slow = await firstCardOnSlow3g(browser, boardUrl, await storedSession(page), options.slowLoads);

    return [
      loadRow(latencyOf(boardMs), latencyOf(plainMs), firstLoad.apiCalls.length),
      {
        id: 'h',
        subject: 'DOM nodes on the 10,000-task board',
        value: nodes,
        baseline: null,
        target: { text: '≤ 1,400', value: nodes, limit: 1_400 },
      },
      {
        id: 'i',
        subject: 'long tasks (> 50 ms) while dragging a card across the board',
        value: longTasks.length,
        baseline: null,
        target: { text: '0', value: longTasks.length, limit: 0 },
        note: longTasks.length > 0 ? `longest ${Math.round(Math.max(...longTasks))} ms` : undefined,
      },
      {
        id: 'i4',
        subject: 'long tasks (> 50 ms) while dragging, the CPU throttled 4×',
        value: longTasksThrottled.length,
        baseline: null,
        target: { text: '0', value: longTasksThrottled.length, limit: 0 },
        note:
          longTasksThrottled.length > 0
            ? `longest ${Math.round(Math.max(...longTasksThrottled))} ms`
            : undefined,
      },
      bundleRow(bundleBytes, minimalBytes, firstLoad.scripts.length),
      slow,
    ];
  } finally {
    await browser?.close().catch(() => undefined);
    await app?.server.close().catch(() => undefined);
    await rm(outDir, { recursive: true, force: true });
  }
}

function loadRow(
  board: ReturnType<typeof latencyOf>,
  plain: ReturnType<typeof latencyOf>,
  calls: number,
): WebRow {
  const ratio = board.p50Ms / plain.p50Ms;
  return {
    id: 'g',
    subject: 'board load to every column’s first page (Chromium)',
    value: board.p50Ms,
    unit: 'ms',
    latency: board,
    baseline: { name: `the same ${calls} API calls with plain fetch`, value: plain.p50Ms, latency: plain },
    target: { text: '≤ 1.5×', value: ratio, limit: 1.5 },
  };
}

/** The session the app keeps in localStorage (supabase-js's `sb-…-auth-token`), to open new tabs with. */
async function storedSession(page: Page): Promise<{ key: string; value: string }> {
  const entry = await page.evaluate(() => {
    const { localStorage } = globalThis as unknown as { localStorage: Record<string, string> };
    const key = Object.keys(localStorage).find((name) => name.endsWith('-auth-token'));
    return key ? { key, value: localStorage[key] ?? '' } : null;
  });
  if (!entry) throw new Error('the signed-in page keeps no session');
  return entry;
}

function bundleRow(board: number, minimal: number, files: number): WebRow {
  return {
    id: 'j',
    subject: `the board route's JavaScript, gzipped (${files} files)`,
    value: board,
    unit: 'bytes',
    baseline: { name: 'a minimal Vite + React app', value: minimal },
    target: { text: '≤ 2×', value: board / minimal, limit: 2 },
  };
}

export async function signIn(page: Page, appUrl: string, member: { email: string; password: string }) {
  await page.goto(`${appUrl}/sign-in`);
  await page.getByLabel('E-mail').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in', { timeout: READY_TIMEOUT_MS });
}

/** One load of the board: the API calls it made for its columns and the app's scripts it ran. */
async function recordLoad(page: Page, boardUrl: string) {
  const apiCalls: string[] = [];
  const scripts = new Set<string>();
  const appOrigin = new URL(boardUrl).origin;
  const listener = (request: Request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.origin === appOrigin) scripts.add(url.pathname.slice(1));
    if (url.pathname.includes('/functions/v1/api/') && /\/(tasks|task-counts)$/.test(url.pathname)) {
      apiCalls.push(request.url());
    }
  };
  // A fresh page, so that every script of the route is fetched, not served from memory. Listened to only
  // from there: the page before (the one signing in led to) may still be fetching its own scripts.
  await page.context().clearCookies();
  await page.goto('about:blank');
  page.on('request', listener);
  await boardReadyAt(page, boardUrl);
  page.off('request', listener);
  return { apiCalls, scripts: [...scripts] };
}

/**
 * Navigates to the board; answers when, after navigation start, every column showed its first cards, or,
 * folded, its count.
 */
export async function boardReadyAt(page: Page, boardUrl: string): Promise<number> {
  await page.goto(boardUrl, { waitUntil: 'commit' });
  const ready = await page.waitForFunction(
    ({ columns, card }) => {
      const { document, performance } = globalThis as unknown as InPage;
      const shown = columns.every(
        ({ column, folded }) =>
          document.querySelector(`${column} ${card}`) !== null ||
          /\d/.test(document.querySelector(folded)?.textContent ?? ''),
      );
      return shown ? performance.now() : false;
    },
    {
      columns: SEEDED_STATUSES.map((status) => ({ column: COLUMN(status), folded: FOLDED_COUNT(status) })),
      card: CARD,
    },
    { polling: 'raf', timeout: READY_TIMEOUT_MS },
  );
  return (await ready.jsonValue()) as number;
}

async function plainFetchDoneAt(page: Page, baselineUrl: string): Promise<number> {
  await page.goto(baselineUrl, { waitUntil: 'commit' });
  const done = await page.waitForFunction(
    () => (globalThis as unknown as InPage).doneAt ?? false,
    undefined,
    {
      polling: 'raf',
      timeout: READY_TIMEOUT_MS,
    },
  );
  return (await done.jsonValue()) as number;
}

/** Drags the first backlog card over to the last column with the mouse, collecting long tasks meanwhile. */
async function longTasksWhileDragging(page: Page): Promise<number[]> {
  await page.evaluate(() => {
    const seen: number[] = [];
    const page = globalThis as unknown as InPage;
    page.longTasks = seen;
    new page.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  const [first, last] = [SEEDED_STATUSES[0], SEEDED_STATUSES.at(-1) ?? SEEDED_STATUSES[0]];
  const from = await settledBox(page, `${COLUMN(first)} ${DRAGGABLE_CARD}`);
  const to = await settledBox(page, COLUMN(last));
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  // Past the drag's activation distance, then across every column.
  await page.mouse.move(start.x + 12, start.y, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 40 });
  await page.mouse.up();
  await page.waitForTimeout(1_000);
  return page.evaluate(() => (globalThis as unknown as InPage).longTasks ?? []);
}

/**
 * Where the first element `selector` names is, once it stays put. The board paints its first cards before
 * its drag-and-drop and virtualizer code has loaded (late-board-modules.ts), then draws them again with it: a box
 * taken meanwhile can belong to a card already replaced (Playwright answers null for it).
 */
async function settledBox(page: Page, selector: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const box = await page.locator(selector).first().boundingBox({ timeout: READY_TIMEOUT_MS });
    if (box) return box;
    await page.waitForTimeout(50);
  }
  throw new Error(`the board shows no ${selector} to drag across`);
}

/** The floor of row g: a page of the app's origin that fetches what the board fetched, and nothing else. */
const BASELINE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>plain fetch</title></head><body>
<script>
  const { token, urls } = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  const headers = { Authorization: 'Bearer ' + token };
  Promise.all(urls.map((url) => fetch(url, { headers }).then((response) => response.json()))).then(() => {
    window.doneAt = performance.now();
  });
</script>
</body></html>
`;
