/**
 * The usability review, item 12: GitHub-flavoured markdown in descriptions (task lists, tables,
 * strikethrough); a member ticks a checklist item in the panel (a PATCH of the description with If-Match),
 * the card shows the progress ("2/3") and the API counts it; a viewer sees the boxes but cannot tick them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { emulateNetwork, SLOW_3G } from '../support/network-conditions.ts';
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

  test('two items ticked at once on Slow 3G: both show at once, and both are saved, one after the other', async () => {
    const { page } = ada;
    await page.goto(`${boardUrl()}/t/1`);
    const description = page.getByRole('region', { name: 'Description' });
    const box = (name: string) => description.getByRole('checkbox', { name });
    await box('ship it').waitFor();
    const patches: { ifMatch: string | undefined; status: Promise<number> }[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'PATCH' || !request.url().includes('/v1/tasks/')) return;
      patches.push({
        ifMatch: request.headers()['if-match'],
        status: request.response().then((response) => response?.status() ?? 0),
      });
    });
    const restore = await emulateNetwork(page, SLOW_3G);
    // The second click while the first tick is on its way: before, it was dropped.
    await box('ship it').click();
    await box('write the copy').click();
    expect(await box('ship it').isChecked()).toBe(true);
    expect(await box('write the copy').isChecked()).toBe(false);
    await expect.poll(() => patches.length, { timeout: 30_000 }).toBe(2);
    expect(await Promise.all(patches.map((patch) => patch.status))).toEqual([200, 200]);
    await restore();
    // The second carried the version the first made, so it was no conflict.
    expect(patches.map((patch) => patch.ifMatch)).toEqual(['"2"', '"3"']);
    const task = await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-1`);
    expect(task.description).toBe(
      DESCRIPTION.replace('- [x] write the copy', '- [ ] write the copy')
        .replace('- [ ] review it', '- [x] review it')
        .replace('- [ ] ship it', '- [x] ship it'),
    );
    expect(task.checklist).toEqual({ done: 2, total: 3 });
  });
});
