/**
 * The board and task-panel work, flows 3 and 6: a member opens a task, writes its description in markdown and
 * comments; two members edit the same title and the second is told, keeping their text. Also: the task opened
 * from its address is a page, opened from the app it is a panel over the board that Esc closes; axe finds no
 * serious or critical violation on either; screenshots of both at 1280 and 390 px, light and dark.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { watchApiCalls } from '../support/browser-api-calls.ts';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { freshEmail } from '../support/web-accounts.ts';
import { expectNoSeriousAxeViolations as expectNoSeriousViolations } from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const API = `${apiUrl}/functions/v1/api/v1`;
const SCREENSHOTS = 'test-results/screenshots';
const PASSWORD = 'task panel password 1';
// Chromium logs every 4xx answer; the conflict test provokes a 412 on purpose.
const expectedConflict = /Failed to load resource: the server responded with a status of 412/;

interface Person {
  context: BrowserContext;
  page: Page;
  token: string;
  errors: string[];
}

let browser: Browser;
let ada: Person;
let bob: Person;
const slug = `panel-${randomUUID().slice(0, 8)}`;
const taskUrl = () => `${webUrl}/w/${slug}/p/WEB/t/1`;

/** Signs up through the web app's form and reads the session's access token from its storage. */
async function signUp(name: string): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  watchApiCalls(page, apiUrl, errors);
  await page.goto(`${webUrl}/sign-up`);
  await page.getByLabel('E-mail').fill(freshEmail());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Display name (optional)').fill(name);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-up'));
  // Runs in the page; the tests' types have no DOM, so its storage is reached through globalThis.
  const token = await page.waitForFunction(() => {
    const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } })
      .localStorage;
    for (const key of Object.keys(storage)) {
      if (/^sb-.*-auth-token$/.test(key)) {
        return (JSON.parse(storage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
      }
    }
    return undefined;
  });
  return { context, page, token: String(await token.jsonValue()), errors };
}

async function call(person: Person, path: string, method = 'GET', body?: unknown): Promise<unknown> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${person.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The screen at 1280 and 390 px wide, light and dark. */
async function screenshots(page: Page, screen: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 860 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(250);
      await page.screenshot({ path: `${SCREENSHOTS}/${screen}-${width}-${scheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUp('Ada Lovelace');
  bob = await signUp('Bob Kahn');
  await call(ada, '/workspaces', 'POST', { name: 'Panel test', slug });
  await call(ada, `/workspaces/${slug}/projects`, 'POST', { key: 'WEB', name: 'Website' });
  await call(ada, `/workspaces/${slug}/projects/WEB/tasks`, 'POST', { title: 'Write the launch notes' });
  const invitation = (await call(ada, `/workspaces/${slug}/invitations`, 'POST', {
    email: ((await call(bob, '/me')) as { email: string }).email,
    role: 'member',
  })) as { accept_url: string };
  await call(bob, `/invitations/${invitation.accept_url.split('/').at(-1) ?? ''}/accept`, 'POST');
});

afterAll(async () => {
  expect(ada.errors.filter((error) => !expectedConflict.test(error))).toEqual([]);
  expect(bob.errors.filter((error) => !expectedConflict.test(error))).toEqual([]);
  await browser.close();
});

describe('the task panel', () => {
  test('a task opened from its address is a page: its description renders as markdown, and a comment posts', async () => {
    const { page } = ada;
    await page.goto(taskUrl());
    await page.getByRole('button', { name: 'Write the launch notes' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('WEB-1').waitFor();

    await page.getByRole('button', { name: 'Add a description' }).click();
    await page
      .getByLabel('Description (markdown)')
      .fill(
        '## Launch plan\n\nRead [the brief](https://example.com/brief) first.\n\n<img src=x onerror=alert(1)>',
      );
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const description = page.getByRole('region', { name: 'Description' });
    await description.getByRole('heading', { name: 'Launch plan', level: 2 }).waitFor();
    const link = description.getByRole('link', { name: 'the brief' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await description.locator('img').count()).toBe(0);
    await description.getByText('<img src=x onerror=alert(1)>').waitFor();

    await page.getByLabel('Write a comment').fill('Looks **good** to me');
    await page.getByLabel('Write a comment').press('Control+Enter');
    const comment = page.locator('[data-comment-id]').filter({ hasText: 'Looks good to me' });
    await comment.locator('strong', { hasText: 'good' }).waitFor();
    await comment.getByText('Ada Lovelace').waitFor();
    await page.getByText('edited the description').waitFor();
    expect(await page.getByLabel('Write a comment').inputValue()).toBe('');

    await expectNoSeriousViolations(page);
    await screenshots(page, 'task-page');
  });

  test('opened from the app it is a panel over the board; Esc closes it and goes back to the board', async () => {
    const { page } = ada;
    await page.goto(`${webUrl}/w/${slug}/p/WEB`);
    // The shortcut works once the workspace's screens have loaded; until then the key press does nothing.
    const palette = page.getByRole('combobox');
    await expect
      .poll(
        async () => {
          if (!(await palette.isVisible())) await page.keyboard.press('Control+k');
          return palette.isVisible();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true);
    await palette.fill('web-1');
    await page.getByRole('option', { name: /WEB-1/ }).waitFor();
    await page.keyboard.press('Enter');

    const panel = page.getByRole('dialog', { name: 'WEB-1' });
    await panel.getByRole('button', { name: 'Write the launch notes' }).waitFor();
    await panel.getByRole('heading', { name: 'Launch plan' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/w/${slug}/p/WEB/t/1`);

    await expectNoSeriousViolations(page);
    await screenshots(page, 'task-panel');

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/w/${slug}/p/WEB`);
  });

  test('two members edit the same title: the second is told, sees the first one’s, and keeps their text', async () => {
    await ada.page.goto(taskUrl());
    await bob.page.goto(taskUrl());
    await ada.page.getByRole('button', { name: 'Write the launch notes' }).click();
    await bob.page.getByRole('button', { name: 'Write the launch notes' }).click();

    await ada.page.getByRole('textbox', { name: 'Title' }).fill('Launch notes, by Ada');
    await ada.page.getByRole('textbox', { name: 'Title' }).press('Enter');
    await ada.page.getByRole('button', { name: 'Launch notes, by Ada' }).waitFor();

    await bob.page.getByRole('textbox', { name: 'Title' }).fill('Launch notes, by Bob');
    await bob.page.getByRole('textbox', { name: 'Title' }).press('Enter');
    const conflict = bob.page.getByRole('alert').filter({ hasText: 'Someone else changed the title' });
    await conflict.getByText('Launch notes, by Ada').waitFor();
    expect(await bob.page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Launch notes, by Bob');
    await screenshots(bob.page, 'task-conflict');

    await conflict.getByRole('button', { name: 'Use mine' }).click();
    await bob.page.getByRole('button', { name: 'Launch notes, by Bob' }).waitFor();
    expect(bob.errors.some((error) => expectedConflict.test(error))).toBe(true);
  });
});
