/**
 * Issue 24, item 12: GitHub-flavoured markdown in descriptions (task lists, tables, strikethrough); a
 * member ticks a checklist item in the panel (a PATCH of the description with If-Match), the card shows
 * the progress ("2/3") and the API counts it; a viewer sees the boxes but cannot tick them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import {
  boardCard as card,
  callApiAs,
  expectNoSeriousAxeViolations,
  saveScreenshots,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'checklist test password';

interface Task {
  id: string;
  key: string;
  description: string;
  version: number;
  checklist: { done: number; total: number };
}

let browser: Browser;
let ada: Person;
let val: Person;
const slug = `lists-${Date.now().toString(36)}`;
const boardUrl = () => `${webUrl}/w/${slug}/p/WEB`;
const DESCRIPTION = [
  'Before the launch:',
  '',
  '- [x] write the copy',
  '- [ ] review it',
  '- [ ] ship it',
  '',
  '| Page | Owner |',
  '| --- | --- |',
  '| Pricing | Ada |',
  '',
  'The ~~old~~ new footer.',
].join('\n');

const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, person.page, method, path, body);

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  val = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  await call(ada, 'POST', '/workspaces', { name: 'Checklist test', slug });
  await call(ada, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
    title: 'Launch the pricing page',
    description: DESCRIPTION,
  });
  const invite = await call<{ accept_url: string }>(ada, 'POST', `/workspaces/${slug}/invitations`, {
    email: val.email,
    role: 'viewer',
  });
  await call(val, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
}, 120_000);

afterAll(async () => {
  for (const person of [ada, val]) {
    if (!person) continue;
    expect(person.errors).toEqual([]);
    await person.context.close();
  }
  await browser?.close();
});

const progress = (done: number, total: number) => `${done} of ${total} checklist items done`;

describe('checklists', () => {
  test('the card shows the checklist’s progress', async () => {
    const { page } = ada;
    await page.goto(boardUrl());
    await card(page, 'WEB-1')
      .getByRole('img', { name: progress(1, 3) })
      .waitFor();
    expect(
      await card(page, 'WEB-1')
        .getByRole('img', { name: progress(1, 3) })
        .textContent(),
    ).toBe('1/3');
  });

  test('the panel renders task lists, tables and strikethrough; ticking an item saves it', async () => {
    const { page } = ada;
    await card(page, 'WEB-1').click();
    const panel = page.getByRole('dialog', { name: 'WEB-1' });
    const description = panel.getByRole('region', { name: 'Description' });
    await description.getByRole('checkbox', { name: 'review it' }).waitFor();
    expect(await description.getByRole('checkbox', { name: 'write the copy' }).isChecked()).toBe(true);
    expect(await description.getByRole('cell', { name: 'Pricing' }).count()).toBe(1);
    expect(await description.locator('del').textContent()).toBe('old');

    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/v1/tasks/'),
    );
    await description.getByRole('checkbox', { name: 'review it' }).click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(answer.request().headers()['if-match']).toBe('"1"');
    expect(await description.getByRole('checkbox', { name: 'review it' }).isChecked()).toBe(true);

    const task = await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-1`);
    expect(task.description).toBe(DESCRIPTION.replace('- [ ] review it', '- [x] review it'));
    expect(task.checklist).toEqual({ done: 2, total: 3 });
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'task-checklist', () => panel.waitFor());

    await page.keyboard.press('Escape');
    await card(page, 'WEB-1')
      .getByRole('img', { name: progress(2, 3) })
      .waitFor();
  });

  test('a viewer sees the boxes, and cannot tick them', async () => {
    const { page } = val;
    await page.goto(`${boardUrl()}/t/1`);
    const box = page.getByRole('checkbox', { name: 'ship it' });
    await box.waitFor();
    expect(await box.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'review it' }).isChecked()).toBe(true);
  });
});
