import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';

const { webUrl } = inject('stack');
let browser: Browser;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
});

beforeEach(async () => {
  page = await browser.newPage();
  pageErrors = watchPageErrors(page);
});

afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]);
});

test('the first screen shows Tasklane and reports the API healthy', async () => {
  await page.goto(webUrl);
  await expect.poll(() => page.title()).toMatch(/Tasklane/);
  await page.getByRole('heading', { name: 'Tasklane' }).waitFor();
  const health = page.getByTestId('api-health');
  await health.getByText('API healthy').waitFor({ timeout: 30_000 });
  expect(await health.textContent()).toMatch(/API healthy/);
});

test('an unknown address shows the not-found page with a way home', async () => {
  await page.goto(`${webUrl}/no/such/page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: /home/i }).click();
  await page.getByTestId('api-health').waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
});
