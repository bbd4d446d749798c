/**
 * Row l: how soon a committed move shows on another person's board, in Chromium. The member moves a task
 * of the big project to the top of a column (member-move.ts: the API's move statements, under RLS, its
 * own transaction); the clock starts when COMMIT has returned, and stops when the card is in its new
 * column in the DOM of the board a colleague (the workspace's admin) has open in Chromium: a
 * MutationObserver armed before the move notes the moment. The floor, for every move in the same round:
 * when the move's message reached that page's WebSocket (a listener the page is given before the app's
 * own scripts run). Both are taken on the page's clock and brought onto this process's by an offset
 * measured at the start. The row also counts the API requests that page makes per move.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page, Request } from 'playwright-core';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import { readKeys } from '../local/keys.ts';
import { launchBrowser } from '../tests/support/browser.ts';
import type { BenchStack } from './bench-stack.ts';
import { latencyOf, ratioOfMedians, type Latency } from './latency.ts';
import { apiLikeDatabase } from './list-overhead.ts';
import { alternating, moveAsMember } from './member-move.ts';
import type { BenchRow } from './rows.ts';
import { selectColumnTaskIds } from './seed.queries.ts';
import { buildTasklaneWeb, type BuiltApp } from './web-apps.ts';
import { boardReadyAt, signIn } from './web-board.ts';

/** Untimed moves first: the task reaches the top of a column, where the board shows it, and caches warm. */
const WARMUP_MOVES = 5;
/** Neither of row k's columns (`in_review`, `backlog`), both in the first screen of the board. */
const COLUMNS: readonly [TaskStatus, TaskStatus] = ['todo', 'in_progress'];
const ROUND_TIMEOUT_MS = 10_000;
/** A round ends once the page has had no API request in flight for this long. */
const QUIET_MS = 150;
const CLOCK_SAMPLES = 21;
/**
 * The second security review: a moved card shows on other boards within 1.5× of its time before messages lost
 * their content. Before (2026-11-28, this machine, `npm run bench -- --realtime` on the code of main, three
 * runs back to back with the new code's): p50 14.7, 21.8 and 14.6 ms; their median, 14.7 ms, times 1.5.
 */
const TARGET_P50_MS = 22;

/** What the page is given before its own scripts run (this project has no DOM types). */
interface FeedRead {
  askedAt: number;
  answeredAt?: number;
}

interface InPage {
  document: { querySelector(selector: string): object | null; documentElement: object };
  performance: { now(): number; timeOrigin: number };
  MutationObserver: new (callback: () => void) => {
    observe(target: object, options: { childList: boolean; subtree: boolean }): void;
    disconnect(): void;
  };
  /** The frames the page's WebSockets received: when (page epoch ms) and as text. */
  benchFrames?: { at: number; text: string }[];
  /** The page's reads of the change feed: when (page epoch ms) it asked, and when the answer began. */
  benchFeedReads?: FeedRead[];
  /** When the awaited card showed in its column (page epoch ms). */
  benchCardShown?: Promise<number>;
}

export function describeRealtimeBoardMethod(moves: number): string {
  return (
    `row l moves a task ${WARMUP_MOVES} times untimed, then ${moves} times, as row k does but to the top of a ` +
    `column, timed from its COMMIT's return to the card in its new column in the DOM of a colleague's board ` +
    `in Chromium, against the move's message reaching that page's WebSocket; each move waits for that page's ` +
    `API requests to end`
  );
}

interface MoveSample {
  cardMs: number;
  messageMs: number;
  /** When the first feed read after the commit was asked for, and its answer began, if the page read it. */
  feedRead: { askedMs: number; answeredMs: number } | undefined;
  /** How long the API took over that read, by its own request log (from its first middleware to its answer). */
  feedReadHandledMs: number | undefined;
  /** How long the browser waited for that read's first byte once sent (network timing). */
  feedReadWaitMs: number | undefined;
  requests: string[];
}

export async function measureRealtimeBoard(
  stack: BenchStack,
  moves: number,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const keys = await readKeys(stack.standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  const outDir = await mkdtemp(join(tmpdir(), 'tasklane-bench-live-'));
  const db = apiLikeDatabase(stack, progress);
  let app: BuiltApp | undefined;
  let browser: Browser | undefined;
  try {
    progress('l: building the web app…');
    app = await buildTasklaneWeb(
      outDir,
      { supabaseUrl: stack.standIn.apiUrl, anonKey: keys.anonKey },
      stack.standIn.ports.web,
    );
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(tapPage);
    await signIn(page, app.url, stack.seeded.colleague);
    await boardReadyAt(page, `${app.url}/w/${stack.seeded.slug}/p/${stack.seeded.big.key}`);
    await page.locator('[data-connection="live"]').waitFor({ state: 'attached', timeout: ROUND_TIMEOUT_MS });
    const requests = watchApiRequests(page);
    const offsetMs = await pageClockOffset(page);
    const taskId = await taskOfItsOwn(stack);
    const nextColumn = alternating(COLUMNS);
    const round = async (): Promise<MoveSample> => {
      const status = nextColumn();
      const key = await keyOf(stack, taskId);
      await armCardWatch(page, key, status);
      requests.reset();
      const logBefore = stack.standIn.output().length;
      const readsBefore = await page.evaluate(
        () => (globalThis as unknown as InPage).benchFeedReads?.length ?? 0,
      );
      let version = 0;
      await moveAsMember(
        db,
        stack.principal,
        { projectId: stack.seeded.big.id, taskId, status, to: 'top' },
        (task) => (version = task.version),
      );
      const committedAt = performance.timeOrigin + performance.now();
      const cardAt = await page.evaluate(() => (globalThis as unknown as InPage).benchCardShown);
      const messageAt = await messageArrival(page, taskId, version);
      await requests.quiet();
      const feedRead = await page.evaluate(
        (from) => (globalThis as unknown as InPage).benchFeedReads?.[from],
        readsBefore,
      );
      const sinceCommit = (pageTime: number) => pageTime - offsetMs - committedAt;
      return {
        cardMs: sinceCommit(cardAt ?? Number.NaN),
        messageMs: sinceCommit(messageAt),
        feedRead: feedRead?.answeredAt
          ? { askedMs: sinceCommit(feedRead.askedAt), answeredMs: sinceCommit(feedRead.answeredAt) }
          : undefined,
        feedReadHandledMs: feedReadDuration(stack.standIn.output().slice(logBefore)),
        feedReadWaitMs: requests.feedReadWaitMs(),
        requests: requests.sent(),
      };
    };
    progress(`l: ${WARMUP_MOVES} untimed moves, then ${moves} timed, watched on a colleague's board…`);
    for (let done = 0; done < WARMUP_MOVES; done += 1) await round();
    const samples: MoveSample[] = [];
    for (let done = 0; done < moves; done += 1) samples.push(await round());
    return [{ ...boardRow(samples), requested: moves }];
  } finally {
    await browser?.close().catch(() => undefined);
    await app?.server.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    await rm(outDir, { recursive: true, force: true });
  }
}

function boardRow(samples: readonly MoveSample[]): BenchRow {
  const card: Latency = latencyOf(samples.map((sample) => sample.cardMs));
  const message: Latency = latencyOf(samples.map((sample) => sample.messageMs));
  const ratio = ratioOfMedians(card, message);
  return {
    id: 'l',
    subject: "task move's COMMIT → the card in its new column on a colleague's board (Chromium)",
    latency: card,
    baseline: { name: "the move's message arriving in that page", latency: message },
    ratio,
    target: { text: `p50 ≤ ${TARGET_P50_MS} ms (1.5× before)`, value: card.p50Ms, limit: TARGET_P50_MS },
    note: `${requestsNote(samples)}; ${breakdownNote(samples)}`,
  };
}

const PREFLIGHT = 'preflight of ';

/** The `duration_ms` of the first change-feed read in the API's request log lines, if there is one. */
function feedReadDuration(log: string): number | undefined {
  for (const line of log.split('\n')) {
    const json = line.slice(line.indexOf('{'));
    if (!json.includes('"msg":"request"') || !json.includes('/events"')) continue;
    try {
      const entry = JSON.parse(json) as { method?: string; duration_ms?: number };
      if (entry.method === 'GET' && typeof entry.duration_ms === 'number') return entry.duration_ms;
    } catch {
      // A line cut in two by the pipe: not a log entry to read.
    }
  }
  return undefined;
}

/** "p50 after the commit: message 1.9 ms, feed read asked 2.4 ms, answered 9.8 ms (100 moves), card 14.1 ms". */
function breakdownNote(samples: readonly MoveSample[]): string {
  const p50 = (values: number[]) => `${latencyOf(values).p50Ms.toFixed(1)} ms`;
  const reads = samples.flatMap((sample) => (sample.feedRead === undefined ? [] : [sample.feedRead]));
  const read =
    reads.length > 0
      ? `, feed read asked ${p50(reads.map((r) => r.askedMs))}, answered ${p50(reads.map((r) => r.answeredMs))} (${reads.length} moves)`
      : '';
  const handled = samples.flatMap((sample) => sample.feedReadHandledMs ?? []);
  const waited = samples.flatMap((sample) => sample.feedReadWaitMs ?? []);
  const inApi =
    handled.length > 0
      ? ` (of which the browser waited ${p50(waited)} for the first byte, and the API handled it in ${p50(handled)})`
      : '';
  return (
    `p50 after the commit: message ${p50(samples.map((sample) => sample.messageMs))}${read}${inApi}, ` +
    `card ${p50(samples.map((sample) => sample.cardMs))}`
  );
}

/** "2.00 API requests per move on that board: events 100, task-counts 100; 0.01 CORS preflights per move". */
function requestsNote(samples: readonly MoveSample[]): string {
  const byKind = new Map<string, number>();
  let preflights = 0;
  for (const sample of samples)
    for (const kind of sample.requests) {
      if (kind.startsWith(PREFLIGHT)) preflights += 1;
      else byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
  const total = [...byKind.values()].reduce((sum, count) => sum + count, 0);
  const kinds = [...byKind.entries()].map(([kind, count]) => `${kind} ${count}`).join(', ');
  const perMove = (count: number) => (count / samples.length).toFixed(2);
  return (
    `${perMove(total)} API requests per move on that board${kinds ? `: ${kinds}` : ''}; ` +
    `${perMove(preflights)} CORS preflights per move`
  );
}

/** A backlog task of the big project that neither row b nor row k moves. */
async function taskOfItsOwn(stack: BenchStack): Promise<string> {
  const { viaApi, viaSql } = stack.seeded.movable;
  const backlog = await selectColumnTaskIds(stack.owner.statements, stack.seeded.big.id, 'backlog', 4);
  const [, taskId] = backlog.filter((id) => id !== viaApi && id !== viaSql);
  if (!taskId) throw new Error('row l needs a backlog task of the big project that rows b and k do not move');
  return taskId;
}

async function keyOf(stack: BenchStack, taskId: string): Promise<string> {
  const { rows } = await stack.owner.statements.query<{ key: string }>(
    `select p.key || '-' || t.number as key from public.tasks t join public.projects p on p.id = t.project_id
     where t.id = $1`,
    [taskId],
  );
  const key = rows[0]?.key;
  if (!key) throw new Error(`no task ${taskId}`);
  return key;
}

/**
 * Given to the page before its scripts: every WebSocket notes each frame it receives, and every read of
 * the change feed when it was asked for and when its answer began (page epoch ms, as the card's time).
 */
function tapPage(): void {
  const page = globalThis as unknown as InPage & {
    WebSocket: new (...args: never[]) => EventTarget;
    fetch: typeof fetch;
  };
  // No named function in here: tsx would wrap it in a helper the page does not have.
  const { performance } = page;
  const feedReads: FeedRead[] = [];
  page.benchFeedReads = feedReads;
  const nativeFetch = page.fetch.bind(page);
  page.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.split('?')[0]?.endsWith('/events')) return nativeFetch(input, init);
    const read: FeedRead = { askedAt: performance.timeOrigin + performance.now() };
    feedReads.push(read);
    return nativeFetch(input, init).then((response) => {
      read.answeredAt = performance.timeOrigin + performance.now();
      return response;
    });
  };
  const frames: { at: number; text: string }[] = [];
  page.benchFrames = frames;
  const Native = page.WebSocket;
  const decoder = new TextDecoder();
  page.WebSocket = class extends Native {
    constructor(...args: never[]) {
      super(...args);
      this.addEventListener('message', (event) => {
        const at = page.performance.timeOrigin + page.performance.now();
        const { data } = event as MessageEvent;
        frames.push({ at, text: data instanceof ArrayBuffer ? decoder.decode(data) : String(data) });
        if (frames.length > 1_000) frames.splice(0, 500);
      });
    }
  };
}

/** From now on, the page notes when the card `key` is in the column `status`. */
async function armCardWatch(page: Page, key: string, status: string): Promise<void> {
  await page.evaluate(
    ({ selector, timeoutMs }) => {
      const inPage = globalThis as unknown as InPage;
      const { document, performance } = inPage;
      inPage.benchCardShown = new Promise<number>((resolve, reject) => {
        const observer = new inPage.MutationObserver(() => {
          if (document.querySelector(selector) === null) return;
          observer.disconnect();
          resolve(performance.timeOrigin + performance.now());
        });
        observer.observe(document.documentElement, { childList: true, subtree: true });
        setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the card ${selector} did not show`));
        }, timeoutMs);
      });
    },
    { selector: `[data-column="${status}"] [data-task-key="${key}"]`, timeoutMs: ROUND_TIMEOUT_MS },
  );
}

/** When the page's WebSocket received the message of the task at that version (page epoch ms). */
async function messageArrival(page: Page, taskId: string, version: number): Promise<number> {
  const found = await page.evaluate(
    ({ resource, versionText }) => {
      const frames = (globalThis as unknown as InPage).benchFrames ?? [];
      const frame = frames.find((f) => f.text.includes(resource) && f.text.includes(versionText));
      return frame?.at ?? null;
    },
    { resource: `"resource_id":"${taskId}"`, versionText: `"version":${version}` },
  );
  if (found === null) throw new Error(`the page received no message of ${taskId} at version ${version}`);
  return found;
}

/** The page's clock minus this process's (both epoch ms), from the quickest of a few round trips. */
async function pageClockOffset(page: Page): Promise<number> {
  let best = { roundTrip: Number.POSITIVE_INFINITY, offset: 0 };
  for (let sample = 0; sample < CLOCK_SAMPLES; sample += 1) {
    const before = performance.timeOrigin + performance.now();
    const pageNow = await page.evaluate(() => {
      const { performance: clock } = globalThis as unknown as InPage;
      return clock.timeOrigin + clock.now();
    });
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.roundTrip) {
      best = { roundTrip: after - before, offset: pageNow - (before + after) / 2 };
    }
  }
  return best.offset;
}

interface ApiRequests {
  reset(): void;
  /**
   * What the page asked the API for since the reset, by the path's last segment (`task-counts`); a CORS
   * preflight as `preflight of task-counts`.
   */
  sent(): string[];
  /**
   * How long the first change-feed read since the reset waited for its answer's first byte, by the
   * browser's network timing (a duration, so the browser's own clock does not matter).
   */
  feedReadWaitMs(): number | undefined;
  /** Resolves once no API request has been in flight for QUIET_MS. */
  quiet(): Promise<void>;
}

function watchApiRequests(page: Page): ApiRequests {
  let sent: string[] = [];
  const inFlight = new Set<Request>();
  let lastChange = performance.now();
  const isApi = (request: Request) => new URL(request.url()).pathname.includes('/functions/v1/api/');
  page.on('request', (request) => {
    if (!isApi(request)) return;
    const kind = new URL(request.url()).pathname.split('/').at(-1) ?? '';
    sent.push(request.method() === 'OPTIONS' ? `${PREFLIGHT}${kind}` : kind);
    inFlight.add(request);
    lastChange = performance.now();
  });
  const done = (request: Request) => {
    if (inFlight.delete(request)) lastChange = performance.now();
  };
  let feedReadWait: number | undefined;
  page.on('requestfinished', (request) => {
    const isFeedRead = request.method() === 'GET' && new URL(request.url()).pathname.endsWith('/events');
    if (isFeedRead && feedReadWait === undefined) {
      const { requestStart, responseStart } = request.timing();
      feedReadWait = responseStart - requestStart;
    }
    done(request);
  });
  page.on('requestfailed', done);
  return {
    reset: () => {
      sent = [];
      feedReadWait = undefined;
    },
    feedReadWaitMs: () => feedReadWait,
    sent: () => [...sent],
    quiet: async () => {
      const deadline = performance.now() + ROUND_TIMEOUT_MS;
      while (inFlight.size > 0 || performance.now() - lastChange < QUIET_MS) {
        if (performance.now() > deadline) throw new Error('the board kept asking the API for more');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
