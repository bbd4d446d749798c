import type { Page } from 'playwright-core';

/** What Chromium's network emulation takes: latency in ms, throughputs in bytes per second (-1: no limit). */
export interface NetworkConditions {
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/** Chrome DevTools' "Slow 3G", near enough: 400 ms, 400 kbit/s each way. */
export const SLOW_3G: NetworkConditions = {
  latency: 400,
  downloadThroughput: 50_000,
  uploadThroughput: 50_000,
};

/** Emulates `conditions` on the page's network (Chromium's throttling); answers how to lift it. */
export async function emulateNetwork(
  page: Page,
  conditions: NetworkConditions,
): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...conditions });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
  };
}
