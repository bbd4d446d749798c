/**
 * The usability review, item 1: the quick-add at the speed people type, on a fast and on a slow network.
 * Titles typed one after another with Enter and no pause all become tasks, each exactly once, in the order
 * typed; the box is empty at once for the next title; a card shows at once, marked as saving; a failed
 * creation keeps its title on the board with the API's reason, and a retry is the same creation (its
 * `Idempotency-Key`), never a second task.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { emulateNetwork, SLOW_3G } from '../support/network-conditions.ts';
import {
  boardColumn as column,
  callApiAs,
  saveScreenshots as screenshots,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'quick add test password';
/** Tall enough that a column draws all its cards (the first cards, then the virtualizer's). */
const VIEWPORT = { width: 1280, height: 2400 };
/** How long the cards may take to be saved, on a busy machine or a slow network. */
const SAVED = { timeout: 30_000 };
/** Chromium's "Slow 3G" (DevTools' preset): 400 ms of latency, 400 kbit/s each way. */
/** Chromium logs each failed request; these are the failures of task creation the tests provoke. */
const PROVOKED =
  /Failed to load resource: (the server responded with a status of 500|net::ERR_CONNECTION_RESET)/;

interface Task {
  key: string;
  title: string;
  status: string;
}

let browser: Browser;
let owner: Person;
const slug = `quick-${Date.now().toString(36)}`;

const call = <T>(method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, owner.page, method, path, body);

/** The project's tasks as the API has them, in board order (every status: none may be elsewhere). */
async function tasksInApi(key: string): Promise<Task[]> {
  const page = await call<{ data: Task[] }>(
    'GET',
    `/workspaces/${slug}/projects/${key}/tasks?sort=position&limit=100`,
  );
  return page.data;
}

/** The keys of the cards a column shows, top to bottom. */
function keysOnBoard(page: Page, status = 'todo'): Promise<string[]> {
  return column(page, status)
    .locator('a[data-task-key]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-task-key') ?? ''));
}

/** The cards of a column whose creation is not done: being saved, or failed. */
const unsaved = (page: Page, state: 'saving' | 'failed' | '' = '') =>
  column(page, 'todo').locator(state ? `[data-creation="${state}"]` : '[data-creation]');

/** A new project's board, its Todo quick-add open and focused, ready for typing. */
async function openQuickAdd(key: string): Promise<Locator> {
  const { page } = owner;
  const name = `Quick add ${key}`;
  await call('POST', `/workspaces/${slug}/projects`, { key, name });
  await page.setViewportSize(VIEWPORT);
  await page.goto(`${webUrl}/w/${slug}/p/${key}`);
  await page.getByRole('heading', { name }).waitFor();
  await page.getByTestId('count-todo').getByText('0').waitFor();
  await page.getByRole('button', { name: 'Add a task to Todo' }).click();
  const field = page.getByRole('textbox', { name: 'New task in Todo' });
  await field.waitFor();
  await expect
    .poll(() => field.evaluate((element) => element === element.ownerDocument.activeElement))
    .toBe(true);
  return field;
}

/** Each title typed and sent with Enter, without waiting for anything in between: a person typing fast. */
async function typeAtSpeed(page: Page, titles: readonly string[]): Promise<void> {
  for (const title of titles) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
  }
}

/** The API holds exactly these titles, in this order, and the board shows its cards in that order. */
async function expectCreatedInOrder(page: Page, key: string, titles: readonly string[]): Promise<void> {
  await expect.poll(async () => (await tasksInApi(key)).map((task) => task.title), SAVED).toEqual(titles);
  const tasks = await tasksInApi(key);
  expect(tasks.every((task) => task.status === 'todo')).toBe(true);
  await expect.poll(() => keysOnBoard(page), SAVED).toEqual(tasks.map((task) => task.key));
  expect(await unsaved(page).count()).toBe(0);
  await page.getByTestId('count-todo').getByText(String(titles.length), { exact: true }).waitFor(SAVED);
}

const TWENTY = [
  'Homepage copy',
  'Font pairing',
  'Order new laptops',
  'Renew domain names',
  'Pricing table',
  'Cookie banner',
  'Sitemap',
  'Redirects from the old blog',
  'Press kit',
  'Team photos',
  'Careers page',
  'Status page link',
  'Footer links',
  'Open Graph images',
  'Favicon',
  'Contact form spam filter',
  'Analytics consent',
  'Newsletter signup',
  'Accessibility statement',
  'Launch announcement',
];

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  await call('POST', '/workspaces', { name: 'Quick add test', slug });
}, 120_000);

afterAll(async () => {
  if (owner) {
    expect(owner.errors.filter((error) => !PROVOKED.test(error))).toEqual([]);
    await owner.context.close();
  }
  await browser?.close();
});

describe('the quick-add at speed', () => {
  test('twenty titles typed with no pause become those twenty tasks, in order, and the box is empty', async () => {
    const { page } = owner;
    const field = await openQuickAdd('FAST');
    await typeAtSpeed(page, TWENTY);
    expect(await field.inputValue()).toBe('');
    await expectCreatedInOrder(page, 'FAST', TWENTY);
    expect(await field.inputValue()).toBe('');
  });

  test('on Slow 3G too: the box clears at once, the cards show as saving, and every title arrives once', async () => {
    const { page } = owner;
    const titles = TWENTY.slice(0, 6);
    const field = await openQuickAdd('SLOW');
    const lift = await emulateNetwork(page, SLOW_3G);
    try {
      await typeAtSpeed(page, titles);
      // The box is empty at once, and the last title (queued behind the others) shows as a card being saved.
      expect(await field.inputValue()).toBe('');
      await unsaved(page, 'saving')
        .last()
        .getByText(titles.at(-1) ?? '')
        .waitFor();
      await expect.poll(() => unsaved(page).count(), { timeout: 45_000 }).toBe(0);
    } finally {
      await lift();
    }
    await expectCreatedInOrder(page, 'SLOW', titles);
    expect(await field.inputValue()).toBe('');
  }, 90_000);

  test('Enter pressed twice quickly makes one task', async () => {
    const { page } = owner;
    const field = await openQuickAdd('TWICE');
    await page.keyboard.type('Book the launch venue');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expectCreatedInOrder(page, 'TWICE', ['Book the launch venue']);
    // Nothing else turns up a little later either.
    await page.waitForTimeout(1_000);
    expect((await tasksInApi('TWICE')).length).toBe(1);
    expect(await field.inputValue()).toBe('');
  });

  test('a creation whose answer is lost is sent again with its key, and is one task', async () => {
    const { page } = owner;
    await openQuickAdd('RETRY');
    const tasksUrl = `${apiUrl}/functions/v1/api/v1/workspaces/${slug}/projects/RETRY/tasks`;
    const keys: string[] = [];
    await page.route(tasksUrl, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.fallback();
      keys.push((await request.headerValue('Idempotency-Key')) ?? '(none)');
      if (keys.length > 1) return route.fallback();
      // The API creates the task, but its answer never reaches the page (a dropped connection).
      const response = await route.fetch();
      expect(response.status()).toBe(201);
      return route.abort('connectionreset');
    });
    try {
      const answered = page.waitForResponse(
        (response) => response.url() === tasksUrl && response.request().method() === 'POST',
        SAVED,
      );
      await typeAtSpeed(page, ['Renew the TLS certificate']);
      // Sent again (after a second or two), and answered with the task the first request created.
      const replay = await answered;
      expect(replay.status()).toBe(201);
      expect(replay.headers()['idempotent-replayed']).toBe('true');
      await expectCreatedInOrder(page, 'RETRY', ['Renew the TLS certificate']);
    } finally {
      await page.unroute(tasksUrl);
    }
    expect(keys.length).toBe(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  test('a failed creation keeps its title on the board with the reason, and Retry saves it once', async () => {
    const { page } = owner;
    const field = await openQuickAdd('FAIL');
    const tasksUrl = `${apiUrl}/functions/v1/api/v1/workspaces/${slug}/projects/FAIL/tasks`;
    const detail = 'Something went wrong on our side. Quote the request id if you contact us.';
    await page.route(tasksUrl, (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      return route.fulfill({
        status: 500,
        headers: {
          'Content-Type': 'application/problem+json',
          'Access-Control-Allow-Origin': webUrl,
          'Access-Control-Expose-Headers': 'X-Request-Id',
          'X-Request-Id': '0b5c1e9e-4f8a-4a55-9d6e-3f0d2a4c7b11',
        },
        body: JSON.stringify({
          type: 'https://tasklane.dev/problems/internal',
          title: 'Internal error',
          status: 500,
          code: 'internal',
          detail,
          request_id: '0b5c1e9e-4f8a-4a55-9d6e-3f0d2a4c7b11',
        }),
      });
    });
    await typeAtSpeed(page, ['Migrate the mailing list']);
    const failed = unsaved(page, 'failed');
    await failed.getByText('Migrate the mailing list').waitFor(SAVED);
    await failed.getByText(detail).waitFor();
    expect(await field.inputValue()).toBe('');
    expect(await tasksInApi('FAIL')).toEqual([]);
    // At 390 px the board shows one column at a time: Todo's, scrolled to.
    await screenshots(page, 'board-quick-add-failed', () => failed.scrollIntoViewIfNeeded());

    await page.unroute(tasksUrl);
    await page.setViewportSize(VIEWPORT);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expectCreatedInOrder(page, 'FAIL', ['Migrate the mailing list']);
  });

  test('a card being saved is dimmed and says so (screenshots)', async () => {
    const { page } = owner;
    await openQuickAdd('SHOT');
    const tasksUrl = `${apiUrl}/functions/v1/api/v1/workspaces/${slug}/projects/SHOT/tasks`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(tasksUrl, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await held;
      return route.fallback();
    });
    try {
      await typeAtSpeed(page, ['Write the launch post', 'Schedule the tweets']);
      const saving = unsaved(page, 'saving');
      await saving.getByText('Schedule the tweets').waitFor();
      expect(await saving.first().getAttribute('aria-busy')).toBe('true');
      await saving.first().getByText('Saving…').waitFor();
      await screenshots(page, 'board-quick-add-saving', () => saving.first().scrollIntoViewIfNeeded());
    } finally {
      release();
      await page.unroute(tasksUrl);
    }
    await page.setViewportSize(VIEWPORT);
    await expectCreatedInOrder(page, 'SHOT', ['Write the launch post', 'Schedule the tweets']);
  });
});
