/**
 * Row m: the first card of a board on Slow 3G, opened with the service worker warm (it has precached the
 * app: only the API's answers cross the slow network) against cold (a fresh profile: the app's code
 * crosses it too). Each load is a new page with the signed-in session already stored, as a returning
 * person's tab.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { latencyOf } from './latency.ts';
import type { WebRow } from './web-rows.ts';

/** Chrome DevTools' "Slow 3G" preset (also Lighthouse's mobile throttling of old). */
const SLOW_3G = { offline: false, latency: 2_000, downloadThroughput: 50_000, uploadThroughput: 50_000 };
const CARD = '[data-task-key]';
const TIMEOUT_MS = 120_000;

interface StoredSession {
  key: string;
  value: string;
}

export async function firstCardOnSlow3g(
  browser: Browser,
  boardUrl: string,
  session: StoredSession,
  loads: number,
): Promise<WebRow> {
  const warm = await signedInContext(browser, session);
  try {
    await installServiceWorker(warm, boardUrl);
    const coldMs: number[] = [];
    const warmMs: number[] = [];
    for (let round = 0; round < loads; round += 1) {
      const cold = await signedInContext(browser, session);
      try {
        coldMs.push(await firstCardAt(cold, boardUrl));
      } finally {
        await cold.close();
      }
      warmMs.push(await firstCardAt(warm, boardUrl));
    }
    const subject = latencyOf(warmMs);
    const baseline = latencyOf(coldMs);
    const ratio = subject.p50Ms / baseline.p50Ms;
    return {
      id: 'm',
      subject: 'first card on Slow 3G, service worker warm (Chromium)',
      value: subject.p50Ms,
      unit: 'ms',
      latency: subject,
      baseline: { name: 'the same, cold: a fresh profile', value: baseline.p50Ms, latency: baseline },
      target: { text: '≤ 0.5×', value: ratio, limit: 0.5 },
    };
  } finally {
    await warm.close();
  }
}

async function signedInContext(browser: Browser, session: StoredSession): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(({ key, value }) => {
    const { localStorage } = globalThis as unknown as {
      localStorage: { setItem(k: string, v: string): void };
    };
    localStorage.setItem(key, value);
  }, session);
  return context;
}

/** Opens the board until the service worker controls the page: by then it has precached the app. */
async function installServiceWorker(context: BrowserContext, boardUrl: string): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(boardUrl);
    await page.locator(CARD).first().waitFor({ timeout: TIMEOUT_MS });
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator
          .serviceWorker.controller !== null,
      undefined,
      { timeout: TIMEOUT_MS },
    );
  } finally {
    await page.close();
  }
}

/** A new page on Slow 3G: from its navigation's start to the first card on screen. */
async function firstCardAt(context: BrowserContext, boardUrl: string): Promise<number> {
  const page: Page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    await page.goto(boardUrl, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    const shown = await page.waitForFunction(
      (card) => {
        const { document, performance } = globalThis as unknown as {
          document: { querySelector(selector: string): unknown };
          performance: { now(): number };
        };
        return document.querySelector(card) !== null ? performance.now() : false;
      },
      CARD,
      { polling: 'raf', timeout: TIMEOUT_MS },
    );
    return (await shown.jsonValue()) as number;
  } finally {
    await page.close();
  }
}
