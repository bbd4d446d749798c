import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { freshEmail, openAccountPage, signUpInBrowser } from '../support/web-accounts.ts';

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

test('the first screen asks to sign in; once signed up, a workspace is created through the API, which reports itself healthy', async () => {
  await page.goto(webUrl);
  await expect.poll(() => page.title()).toMatch(/Tasklane/);
  await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/sign-in');

  await signUpInBrowser(page, webUrl, freshEmail(), 'smoke test password');
  const slug = `smoke-${Date.now().toString(36)}`;
  await page.getByLabel('Name', { exact: true }).fill('Smoke test');
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('heading', { name: 'Smoke test', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/w/${slug}`);

  await openAccountPage(page);
  const health = page.getByTestId('api-health');
  await health.getByText('API healthy').waitFor({ timeout: 30_000 });
  expect(await health.textContent()).toMatch(/API healthy/);
});

test('an unknown address shows the not-found page with a way home', async () => {
  await page.goto(`${webUrl}/no/such/page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: /home/i }).click();
  // Home needs a session; this browser has none.
  await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/sign-in');
});
