/**
 * The realtime work, web and e2e: two people (and a viewer) on the same board see each other's changes live —
 * a card moved, created, edited, commented and deleted, in the browser or through the API with an
 * integrator's token — and who else is on the board, with the task they have open. One of them goes
 * offline, the others change things, and when the network is back the board is exactly right without a
 * reload. Screenshots of the board with presence, and of the reconnecting status, at 1280/390 light/dark.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import {
  boardCard as card,
  boardColumn as column,
  callApiAs,
  dragWithMouse,
  expectNoSeriousAxeViolations,
  saveScreenshots,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const API = `${apiUrl}/functions/v1/api/v1`;
const PASSWORD = 'realtime test password';
/** Live means well under a second; the waits allow five so a busy machine does not fail the run. */
const LIVE = { timeout: 5_000 };
/**
 * A change of place is told at most every 7 s (hosted shuts a channel down after 5 presence messages in
 * 30 s, the Realtime hosted-parity review): a wait for it allows that, and five more.
 */
const PRESENCE = { timeout: 12_000 };
const STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'];

interface Task {
  id: string;
  key: string;
  title: string;
  status: string;
  version: number;
}

let browser: Browser;
const slug = `live-${Date.now().toString(36)}`;
const boardUrl = () => `${webUrl}/w/${slug}/p/WEB`;
let ada: Person;
let bob: Person;
let val: Person;
/** Ada's API token with write scope: an integrator's script acting as her. */
let integrator = '';

const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, person.page, method, path, body);

/** A call with a bearer of one's choosing and optional headers (If-Match); fails on an error answer. */
async function callWith<T>(
  bearer: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`).toBe(true);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

async function tasksOfBoard(): Promise<Task[]> {
  const page = await callWith<{ data: Task[] }>(
    integrator,
    'GET',
    `/workspaces/${slug}/projects/WEB/tasks?limit=200`,
  );
  return page.data;
}

async function taskByKey(key: string): Promise<Task> {
  return callWith<Task>(integrator, 'GET', `/workspaces/${slug}/tasks/${key}`);
}

/** Waits until the card shows in that column of the page's board (the wait is the live test). */
async function expectCardIn(page: Page, key: string, status: string): Promise<number> {
  const started = Date.now();
  await column(page, status).locator(`a[data-task-key="${key}"]`).waitFor(LIVE);
  return Date.now() - started;
}

/** The keys on the page's board, column by column, in the order shown. */
function keysOnBoard(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate((statuses) => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelectorAll: (s: string) => ArrayLike<{ getAttribute: (a: string) => string | null }>;
        };
      }
    ).document;
    return Object.fromEntries(
      statuses.map((status) => [
        status,
        Array.from(doc.querySelectorAll(`[data-column="${status}"] a[data-task-key]`)).map(
          (a) => a.getAttribute('data-task-key') ?? '',
        ),
      ]),
    );
  }, STATUSES);
}

/** The board as the API has it, in the same shape, by position. */
async function keysInApi(): Promise<Record<string, string[]>> {
  const tasks = await tasksOfBoard();
  return Object.fromEntries(
    STATUSES.map((status) => [status, tasks.filter((t) => t.status === status).map((t) => t.key)]),
  );
}

const presence = (page: Page) => page.getByRole('list', { name: 'On this board now' });

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  bob = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  val = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  await call(ada, 'PATCH', '/me', { display_name: 'Ada Lovelace' });
  await call(bob, 'PATCH', '/me', { display_name: 'Bob Kahn' });
  await call(ada, 'POST', '/workspaces', { name: 'Live test', slug });
  await call(ada, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  for (const title of ['Pricing page', 'Redirects', 'Cookie banner', 'Old footer'])
    await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title, status: 'todo' });
  for (const [person, role] of [
    [bob, 'member'],
    [val, 'viewer'],
  ] as const) {
    const invite = await call<{ accept_url: string }>(ada, 'POST', `/workspaces/${slug}/invitations`, {
      email: person.email,
      role,
    });
    await call(person, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
  }
  const token = await call<{ token: string }>(ada, 'POST', '/me/tokens', {
    name: 'Realtime test script',
    scope: 'write',
  });
  integrator = token.token;
}, 120_000);

afterAll(async () => {
  for (const person of [ada, bob, val]) {
    if (!person) continue;
    expect(person.errors).toEqual([]);
    await person.context.close();
  }
  await browser?.close();
});

/** From now on, the API reads the page makes, by the last segment of their path (`events`). */
function apiReadsOf(page: Page): () => string[] {
  const reads: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'GET' && path.includes('/functions/v1/api/'))
      reads.push(path.split('/').at(-1) ?? '');
  });
  return () => reads;
}

describe('a live board', () => {
  test('everyone on the board sees who else is there, and which task they have open', async () => {
    for (const person of [ada, bob, val]) await person.page.goto(boardUrl());
    for (const person of [ada, bob, val]) await expectCardIn(person.page, 'WEB-1', 'todo');
    await expect.poll(() => presence(ada.page).getByRole('listitem').count(), LIVE).toBe(3);
    await presence(ada.page)
      .getByText('Bob Kahn', { exact: true })
      .waitFor({ state: 'attached', ...LIVE });
    await presence(bob.page)
      .getByText('Ada Lovelace', { exact: true })
      .waitFor({ state: 'attached', ...LIVE });
    await presence(ada.page).getByText('Ada Lovelace (you)').waitFor({ state: 'attached' });

    await card(bob.page, 'WEB-2').click();
    await bob.page.getByRole('dialog', { name: 'WEB-2' }).waitFor();
    await presence(ada.page)
      .getByText('Bob Kahn, viewing WEB-2')
      .waitFor({ state: 'attached', ...PRESENCE });
    await bob.page.keyboard.press('Escape');
    await presence(ada.page)
      .getByText('Bob Kahn', { exact: true })
      .waitFor({ state: 'attached', ...PRESENCE });

    await expectNoSeriousAxeViolations(ada.page);
    await saveScreenshots(ada.page, 'board-presence', () => presence(ada.page).waitFor());
  });

  test('flipping through three tasks quickly keeps the channel open (hosted allows 5 presence messages in 30 s)', async () => {
    const { page } = bob;
    const frames: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => frames.push(payload.toString())),
    );
    await page.goto(boardUrl());
    await page.locator('[data-connection="live"]').waitFor({ state: 'attached', ...LIVE });
    for (const key of ['WEB-1', 'WEB-2', 'WEB-3']) {
      await card(page, key).click();
      await page.getByRole('dialog', { name: key }).waitFor();
      // Long enough that each place is a change of its own, quick for a person.
      await page.waitForTimeout(400);
      if (key === 'WEB-3') break;
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: key }).waitFor({ state: 'detached' });
      await page.waitForTimeout(400);
    }
    // The others see where Bob ended up, and his board stays live all along.
    await presence(ada.page)
      .getByText('Bob Kahn, viewing WEB-3')
      .waitFor({ state: 'attached', ...PRESENCE });
    expect(frames.filter((frame) => frame.includes('rate limit exceeded'))).toEqual([]);
    expect(await page.locator('[data-connection="live"]').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'WEB-3' }).waitFor({ state: 'detached' });
  });

  test('a card moved by one person moves on the others’ boards, a viewer’s too', async () => {
    const watching = [bob, val];
    const todoBefore = await Promise.all(
      watching.map(({ page }) => page.getByTestId('count-todo').innerText()),
    );
    const reads = watching.map(({ page }) => apiReadsOf(page));
    await dragWithMouse(ada.page, card(ada.page, 'WEB-1'), column(ada.page, 'in_progress'));
    await expectCardIn(ada.page, 'WEB-1', 'in_progress');
    const took = await expectCardIn(bob.page, 'WEB-1', 'in_progress');
    await expectCardIn(val.page, 'WEB-1', 'in_progress');
    console.info(`realtime e2e: a move reached the other board ${took} ms after the mover saw it`);
    for (const [index, { page }] of watching.entries()) {
      await page.getByTestId('count-in_progress').getByText('1', { exact: true }).waitFor(LIVE);
      await page
        .getByTestId('count-todo')
        .getByText(String(Number(todoBefore[index]) - 1), { exact: true })
        .waitFor(LIVE);
      // The feed told them what changed; the column counts follow from it, without another request.
      expect(reads[index]?.()).toEqual(['events']);
    }
  });

  test('a card created in one browser appears in the others', async () => {
    const field = bob.page.getByRole('textbox', { name: 'New task in Todo' });
    await column(bob.page, 'todo').getByRole('button', { name: 'Add a task to Todo' }).click();
    await field.fill('Launch checklist');
    await field.press('Enter');
    await expectCardIn(bob.page, 'WEB-5', 'todo');
    await field.press('Escape');
    await card(ada.page, 'WEB-5').getByText('Launch checklist').waitFor(LIVE);
    await card(val.page, 'WEB-5').getByText('Launch checklist').waitFor(LIVE);
  });

  test("an edit and a move made through the API with an integrator's token appear live", async () => {
    const pricing = await taskByKey('WEB-1');
    await callWith(
      integrator,
      'PATCH',
      `/tasks/${pricing.id}`,
      { title: 'Pricing page v2' },
      {
        'If-Match': `"${pricing.version}"`,
      },
    );
    await card(bob.page, 'WEB-1').getByText('Pricing page v2').waitFor(LIVE);
    await card(val.page, 'WEB-1').getByText('Pricing page v2').waitFor(LIVE);

    const redirects = await taskByKey('WEB-2');
    await callWith(
      integrator,
      'POST',
      `/tasks/${redirects.id}/move`,
      { status: 'in_review' },
      {
        'If-Match': `"${redirects.version}"`,
      },
    );
    await expectCardIn(ada.page, 'WEB-2', 'in_review');
    await expectCardIn(bob.page, 'WEB-2', 'in_review');
  });

  test('a comment shows in the panel of someone reading the task', async () => {
    await card(bob.page, 'WEB-3').click();
    const panel = bob.page.getByRole('dialog', { name: 'WEB-3' });
    await panel.waitFor();
    const cookie = await taskByKey('WEB-3');
    await call(ada, 'POST', `/tasks/${cookie.id}/comments`, { body: 'Legal signed off on the **banner**' });
    await panel.getByText('Legal signed off on the').waitFor(LIVE);
    await bob.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  test('a card deleted by one person leaves the others’ boards', async () => {
    const footer = await taskByKey('WEB-4');
    await callWith(integrator, 'DELETE', `/tasks/${footer.id}`, undefined, {
      'If-Match': `"${footer.version}"`,
    });
    await card(bob.page, 'WEB-4').waitFor({ state: 'detached', ...LIVE });
    await card(val.page, 'WEB-4').waitFor({ state: 'detached', ...LIVE });
    expect(await keysOnBoard(bob.page)).toEqual(await keysInApi());
  });

  test('offline, the board says it is reconnecting; back online it catches up without a reload', async () => {
    const { page } = bob;
    await bob.context.setOffline(true);
    const status = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    await status.waitFor(LIVE);
    await saveScreenshots(page, 'board-reconnecting', () => status.waitFor());

    // Meanwhile the others carry on: a move, an edit, a new task and a deletion, in the browser and by API.
    await dragWithMouse(ada.page, card(ada.page, 'WEB-3'), column(ada.page, 'in_progress'));
    await expectCardIn(ada.page, 'WEB-3', 'in_progress');
    const pricing = await taskByKey('WEB-1');
    await callWith(
      integrator,
      'PATCH',
      `/tasks/${pricing.id}`,
      { title: 'Pricing page v3' },
      {
        'If-Match': `"${pricing.version}"`,
      },
    );
    await callWith(integrator, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'Made while away',
    });
    const checklist = await taskByKey('WEB-5');
    await callWith(integrator, 'DELETE', `/tasks/${checklist.id}`, undefined, {
      'If-Match': `"${checklist.version}"`,
    });
    await expectCardIn(val.page, 'WEB-3', 'in_progress');
    // Bob's board has not heard of any of it.
    expect(await card(page, 'WEB-5').count()).toBe(1);
    expect(await column(page, 'todo').locator('a[data-task-key="WEB-3"]').count()).toBe(1);

    await bob.context.setOffline(false);
    await status.waitFor({ state: 'detached', ...LIVE });
    await expectCardIn(page, 'WEB-3', 'in_progress');
    await card(page, 'WEB-6').getByText('Made while away').waitFor(LIVE);
    await card(page, 'WEB-1').getByText('Pricing page v3').waitFor(LIVE);
    await card(page, 'WEB-5').waitFor({ state: 'detached', ...LIVE });
    const expected = await keysInApi();
    await expect.poll(() => keysOnBoard(page), LIVE).toEqual(expected);
    expect(new URL(page.url()).pathname).toBe(`/w/${slug}/p/WEB`);
  });
});
