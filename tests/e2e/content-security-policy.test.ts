/**
 * The second security review, item 7: the web app ships a Content-Security-Policy (scripts from its own
 * origin and its hashed inline script only, images from itself and the project's Storage, no framing) and a
 * Referrer-Policy, as the stand-in's web server serves it; markdown images from elsewhere are links. Every
 * other browser test also runs under the policy and fails on any console error, so a policy that broke a
 * screen would fail them too.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { callApiAs, signUpPerson, type Person } from '../support/web-e2e.ts';

const stack = inject('stack');
const { webUrl, apiUrl } = stack;
const PASSWORD = 'content security policy 1';

let browser: Browser;
let ada: Person;
/** A server on another origin: counts what reaches it, and frames the app when asked. */
let elsewhere: Server;
let elsewhereUrl: string;
const reached: string[] = [];

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    reached.push(req.url ?? '');
    if (req.url === '/frame') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>framing</title><iframe src="${webUrl}/sign-in"></iframe>`);
      return;
    }
    res.writeHead(200, { 'content-type': 'image/gif' });
    res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  ada = await signUpPerson(browser, stack, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => elsewhere?.close(resolve));
});

/** What the tests touch of the page's DOM; the tests' types have no DOM, the page has. */
interface PageGlobals {
  __violations: string[];
  __injected?: boolean;
  addEventListener(
    type: string,
    listener: (event: { effectiveDirective: string; blockedURI: string }) => void,
  ): void;
  document: {
    createElement(tag: string): { textContent: string; src: string };
    head: { append(node: unknown): void };
    body: { append(node: unknown): void };
    querySelector(selector: string): unknown;
  };
}

/** The policy violations the page reports, in the order they happen. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const page = globalThis as unknown as PageGlobals;
    page.__violations = [];
    page.addEventListener('securitypolicyviolation', (event) => {
      page.__violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as PageGlobals).__violations);
}

test('every page comes with the policy headers, and its own inline script passes the policy', async () => {
  const response = await fetch(`${webUrl}/sign-in`);
  expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const html = await response.text();
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(policy).toContain("script-src 'self' 'sha256-");
  expect(policy).toContain(`img-src 'self' data: blob: ${new URL(apiUrl).origin}/storage/v1/`);
  expect(policy).toContain("object-src 'none'");
  expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));

  // The board's early requests come from the inline script: they only start when its hash is allowed.
  const { page } = ada;
  const slug = `csp-${randomUUID().slice(0, 8)}`;
  await callApiAs(apiUrl, page, 'POST', '/workspaces', { name: 'Policy', slug });
  await callApiAs(apiUrl, page, 'POST', `/workspaces/${slug}/projects`, { name: 'Web', key: 'WEB' });
  await page.goto(`${webUrl}/w/${slug}/p/WEB`);
  await page.getByRole('heading', { name: /^Web/ }).waitFor();
  expect(
    await page.evaluate(
      () => 'responses' in ((globalThis as { __earlyResponses?: object }).__earlyResponses ?? {}),
    ),
  ).toBe(true);
  expect(ada.errors).toEqual([]);
});

test('a script injected into the page does not run, and an image from elsewhere is not fetched', async () => {
  const { page } = ada;
  await page.goto(`${webUrl}/account`);
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  const violations = await watchViolations(page);
  const before = reached.length;
  await page.evaluate((url) => {
    const { document } = globalThis as unknown as PageGlobals;
    const script = document.createElement('script');
    script.textContent = 'globalThis.__injected = true;';
    document.head.append(script);
    const image = document.createElement('img');
    image.src = `${url}/pixel.gif`;
    document.body.append(image);
  }, elsewhereUrl);
  await expect.poll(violations).toEqual(['script-src-elem inline', `img-src ${elsewhereUrl}/pixel.gif`]);
  expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__injected)).toBeUndefined();
  expect(reached.length).toBe(before);
  // Chromium reports each refusal on the console too: those two, and nothing else.
  const refusals = ada.errors.splice(0);
  expect(refusals).toHaveLength(2);
  expect(refusals.every((line) => line.includes('Content Security Policy'))).toBe(true);
});

test('another site cannot frame the app', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${elsewhereUrl}/frame`);
    // The framing page's load waits for its frame, refused or not.
    await page.waitForLoadState('load');
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    const framedApp = await frame
      ?.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('#root') !== null)
      .catch(() => false);
    expect(framedApp).toBe(false);
  } finally {
    await page.close();
  }
});

test("a markdown image from another origin is shown as a link, and nobody's browser fetches it", async () => {
  const { page } = ada;
  const slug = `cspmd-${randomUUID().slice(0, 8)}`;
  await callApiAs(apiUrl, page, 'POST', '/workspaces', { name: 'Markdown', slug });
  await callApiAs(apiUrl, page, 'POST', `/workspaces/${slug}/projects`, { name: 'Web', key: 'WEB' });
  await callApiAs(apiUrl, page, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
    title: 'Tracked description',
    description: `Status: ![build badge](${elsewhereUrl}/badge.gif)`,
  });
  const before = reached.length;
  await page.goto(`${webUrl}/w/${slug}/p/WEB/t/1`);
  const link = page.getByRole('link', { name: 'build badge' });
  await link.waitFor();
  expect(await link.getAttribute('href')).toBe(`${elsewhereUrl}/badge.gif`);
  expect(await page.locator('img[src*="badge.gif"]').count()).toBe(0);
  expect(reached.length).toBe(before);
  expect(ada.errors).toEqual([]);
});
