/**
 * The usability review, item 5. Offline, the app is still the app: the production build's service worker has
 * the shell and every route's code, so a task never opened before opens (not the browser's offline page); the
 * board shows the data saved for offline use, read-only where nothing is cached; a comment and a new task
 * wait with a visible "will send" and go once the browser is back online.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { serveBuiltWebApp, type BuiltWebApp } from '../support/built-web-app.ts';
import { submitSignIn } from '../support/web-accounts.ts';
import {
  boardCard,
  boardColumn,
  callApiAs,
  expectNoSeriousAxeViolations,
  saveScreenshots,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const stack = inject('stack');
const { apiUrl } = stack;
const PASSWORD = 'offline test password 1';
/** What Chromium reports while the network is off: requests and the realtime socket that cannot go out. */
const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED|WebSocket connection to .* failed/;

let browser: Browser;
let ada: Person;
let app: BuiltWebApp;
let context: BrowserContext;
let page: Page;
let errors: string[];
const slug = `offline-${Date.now().toString(36)}`;
const boardUrl = () => `${app.url}/w/${slug}/p/WEB`;

const call = <T>(method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, ada.page, method, path, body);

/** Whether the page's saved query cache (IndexedDB `tasklane`/`saved-queries`) holds the board's tasks. */
function savedBoardHolds(title: string): Promise<boolean> {
  return page.evaluate(async (wanted) => {
    // The page's IndexedDB, typed as far as it is used here (the tests' types have no DOM).
    interface Request<T> {
      result: T;
      error: unknown;
      onsuccess: () => void;
      onerror: () => void;
    }
    interface Database {
      transaction(store: string): { objectStore(name: string): { getAll(): Request<unknown[]> } };
      close(): void;
    }
    const { indexedDB } = globalThis as unknown as { indexedDB: { open(name: string): Request<Database> } };
    const answer = <T>(request: Request<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(String(request.error)));
      });
    const db = await answer(indexedDB.open('tasklane'));
    try {
      const values = await answer(db.transaction('saved-queries').objectStore('saved-queries').getAll());
      return values.some((value) => typeof value === 'string' && value.includes(wanted));
    } finally {
      db.close();
    }
  }, title);
}

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUpPerson(browser, stack, PASSWORD);
  await call('POST', '/workspaces', { name: 'Offline test', slug });
  await call('POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  await call('POST', `/workspaces/${slug}/projects/WEB/tasks`, { title: 'Write the launch plan' });
  await call('POST', `/workspaces/${slug}/projects/WEB/tasks`, {
    title: 'Pick the venue',
    description: 'Somewhere near the station.',
  });
  app = await serveBuiltWebApp(stack);
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  errors = watchPageErrors(page);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await ada?.context.close();
  await browser?.close();
  await app?.close();
});

test('the build is installable: a manifest with icons, and a service worker that takes the page', async () => {
  await page.goto(`${app.url}/sign-in`);
  await submitSignIn(page, ada.email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== '/sign-in');
  await page.goto(boardUrl());
  await boardCard(page, 'WEB-1').waitFor();

  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await fetch(new URL(manifestHref ?? '', app.url))).json()) as {
    name: string;
    display: string;
    start_url: string;
    icons: { src: string; sizes: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Tasklane', display: 'standalone', start_url: '/' });
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    expect((await fetch(new URL(icon.src, app.url))).status, icon.src).toBe(200);
  }

  // Registered once the board has shown and the page is quiet; it then controls the page (clientsClaim).
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator
        .serviceWorker.controller !== null,
    undefined,
    { timeout: 30_000 },
  );
  await expect.poll(() => savedBoardHolds('Pick the venue'), { timeout: 15_000 }).toBe(true);
  expect(errors).toEqual([]);
});

test('offline, a task never opened opens in the app with what the board knows, and says what waits', async () => {
  await context.setOffline(true);
  // A full load, offline: only the service worker can answer it, and the task route's code was never fetched.
  await page.goto(`${boardUrl()}/t/2`);

  const task = page.getByRole('main');
  // What the board read (saved for offline use) is enough to show the task.
  await task.getByRole('heading', { name: 'Pick the venue', level: 2 }).waitFor();
  await task.getByText('Somewhere near the station.').waitFor();
  await page.getByRole('status').filter({ hasText: 'You’re offline.' }).waitFor();
  await task.getByText('The activity loads when you’re back online.').waitFor();
  await task.getByText('The files load when you’re back online.').waitFor();
  await expectNoSeriousAxeViolations(page);
  await saveScreenshots(page, 'offline-task');
  expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
});

test('offline, a comment and a new task wait with "will send", and go once back online', async () => {
  const task = page.getByRole('main');
  await task.getByRole('textbox', { name: 'Write a comment' }).fill('Booked the hall by the river.');
  await task.getByRole('button', { name: 'Comment', exact: true }).click();
  await task.getByText('Will send when you’re back online').waitFor();

  // Back to the board, still offline: its cards are the saved ones.
  await task.getByRole('link', { name: 'WEB board' }).click();
  await boardCard(page, 'WEB-1').waitFor();

  const column = boardColumn(page, 'todo');
  await page.getByRole('button', { name: 'Add a task to Todo' }).click();
  await page.getByRole('textbox', { name: 'New task in Todo' }).waitFor();
  await page.keyboard.type('Print the posters');
  await page.keyboard.press('Enter');
  await column.getByText('Will send', { exact: true }).waitFor();
  const bar = page.getByRole('status').filter({ hasText: 'You’re offline.' });
  await bar.getByText(/2 changes waiting to send\./).waitFor();
  await expectNoSeriousAxeViolations(page);
  await saveScreenshots(page, 'offline-waiting');

  await context.setOffline(false);
  await bar.waitFor({ state: 'detached' });
  // The bar goes as soon as the browser is online and the changes resume; they are sent a moment later,
  // once each answer is in: the card loses its "Will send" then, and the API has both.
  await column.getByText('Will send', { exact: true }).waitFor({ state: 'detached' });
  const task2 = await taskId(2);
  await expect
    .poll(async () => {
      const comments = await call<{ data: { body: string }[] }>('GET', `/tasks/${task2}/comments`);
      return comments.data.map((comment) => comment.body);
    })
    .toEqual(['Booked the hall by the river.']);
  const tasks = await call<{ data: { title: string }[] }>(
    'GET',
    `/workspaces/${slug}/projects/WEB/tasks?limit=50`,
  );
  expect(tasks.data.map((task) => task.title).sort()).toEqual([
    'Pick the venue',
    'Print the posters',
    'Write the launch plan',
  ]);
  expect(errors.filter((error) => !OFFLINE_NOISE.test(error))).toEqual([]);
});

async function taskId(number: number): Promise<string> {
  return (await call<{ id: string }>('GET', `/workspaces/${slug}/tasks/WEB-${number}`)).id;
}
