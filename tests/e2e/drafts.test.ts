/**
 * The usability review, items 3 and 8. Half-written text is not thrown away: a description or a comment typed
 * with no pause survives a reload, Esc and the panel closing, is offered back in its editor, and leaves once
 * saved; a description changed on the server since the draft began is not overwritten without a word; another
 * account in the same browser does not see it, and signing out removes it. And the panel opens with the
 * card's data at once, while the task is still being read, and stays safe to edit.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { signOutInBrowser, submitSignIn } from '../support/web-accounts.ts';
import { boardCard, callApiAs, saveScreenshots, signUpPerson, type Person } from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'drafts test password 1';
/** Chromium logs each refused request; the conflict test provokes a 412 on purpose. */
const CONFLICT = /Failed to load resource: the server responded with a status of 412/;
const DRAFT_PREFIX = 'tasklane:draft:';

interface Task {
  id: string;
  key: string;
  version: number;
  description: string;
  priority: string;
}

let browser: Browser;
let ada: Person;
let bob: Person;
let adaId: string;
/** The types of the dialogs Ada's page opened (a reload with unsaved text asks first: `beforeunload`). */
const adaDialogs: string[] = [];
const slug = `drafts-${Date.now().toString(36)}`;
const boardUrl = () => `${webUrl}/w/${slug}/p/WEB`;
const taskUrl = (number: number) => `${boardUrl()}/t/${number}`;

const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, person.page, method, path, body);

/** The drafts the page's localStorage holds, by key. */
function draftKeys(page: Page): Promise<string[]> {
  return page.evaluate((prefix) => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.keys(storage).filter((key) => key.startsWith(prefix));
  }, DRAFT_PREFIX);
}

/** The panel over the board, opened by clicking the task's card. */
async function openFromBoard(page: Page, key: string) {
  await boardCard(page, key).click();
  const panel = page.getByRole('dialog', { name: key });
  await panel.waitFor();
  return panel;
}

beforeAll(async () => {
  browser = await launchBrowser();
  ada = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  bob = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  // Accepted, so a reload goes through; each one is counted to see that the page asked.
  ada.page.on('dialog', (dialog) => {
    adaDialogs.push(dialog.type());
    void dialog.accept();
  });
  adaId = (await call<{ id: string }>(ada, 'GET', '/me')).id;
  await call(ada, 'POST', '/workspaces', { name: 'Drafts test', slug });
  await call(ada, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  const invite = await call<{ accept_url: string }>(ada, 'POST', `/workspaces/${slug}/invitations`, {
    email: bob.email,
    role: 'member',
  });
  await call(bob, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
  const label = await call<{ id: string }>(ada, 'POST', `/workspaces/${slug}/labels`, {
    name: 'Launch',
    color: '#2f9e44',
  });
  await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title: 'Write the launch plan' });
  await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
    title: 'Pick the venue',
    description: 'Somewhere **near the station**',
    status: 'in_progress',
    priority: 'high',
    assignee_id: adaId,
    due_date: '2031-03-14',
    label_ids: [label.id],
  });
  await call(ada, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, { title: 'Book the caterer' });
}, 120_000);

afterAll(async () => {
  for (const person of [ada, bob]) {
    if (!person) continue;
    expect(person.errors.filter((error) => !CONFLICT.test(error))).toEqual([]);
    await person.context.close();
  }
  await browser?.close();
});

describe('drafts', () => {
  test('a description typed with no pause survives a reload mid-edit; saving it clears the draft', async () => {
    const { page } = ada;
    await page.goto(taskUrl(1));
    await page.getByRole('button', { name: 'Add a description' }).click();
    await page.getByLabel('Description (markdown)').pressSequentially('## Plan\n\nOpen the doors at nine');
    const warnings = adaDialogs.length;
    await page.reload();
    expect(adaDialogs.slice(warnings)).toEqual(['beforeunload']);

    const field = page.getByLabel('Description (markdown)');
    await field.waitFor();
    expect(await field.inputValue()).toBe('## Plan\n\nOpen the doors at nine');
    const description = page.getByRole('region', { name: 'Description' });
    await description.getByText('Draft', { exact: true }).waitFor();
    await saveScreenshots(page, 'task-description-draft');

    await description.getByRole('button', { name: 'Save', exact: true }).click();
    await description.getByRole('heading', { name: 'Plan', level: 2 }).waitFor();
    expect(await draftKeys(page)).toEqual([]);
    await page.reload();
    await description.getByRole('heading', { name: 'Plan', level: 2 }).waitFor();
    expect(await page.getByLabel('Description (markdown)').count()).toBe(0);
  });

  test('a new comment survives a reload and Esc; an edit of a comment survives closing the panel; sending clears them', async () => {
    const { page } = ada;
    await page.goto(boardUrl());
    let panel = await openFromBoard(page, 'WEB-3');
    await panel.getByLabel('Write a comment').pressSequentially('Ask about vegetarian options');
    await page.reload();
    // After a reload the task shows as a panel or a page; the comment box is there either way.
    const reloaded = page.getByLabel('Write a comment');
    await expect.poll(() => reloaded.inputValue()).toBe('Ask about vegetarian options');

    await reloaded.press('Control+End');
    await reloaded.pressSequentially(' and the price');
    await page.keyboard.press('Escape');
    await reloaded.waitFor({ state: 'detached' });
    panel = await openFromBoard(page, 'WEB-3');
    const composer = panel.getByLabel('Write a comment');
    expect(await composer.inputValue()).toBe('Ask about vegetarian options and the price');
    await panel.getByText('Draft', { exact: true }).waitFor();
    await saveScreenshots(page, 'task-comment-draft');

    await composer.press('Control+Enter');
    const comment = panel.locator('[data-comment-id]').filter({ hasText: 'and the price' });
    await comment.waitFor();
    await expect.poll(() => composer.inputValue()).toBe('');
    expect(await draftKeys(page)).toEqual([]);

    await comment.getByRole('button', { name: 'Edit' }).click();
    await panel.getByLabel('Edit comment').press('Control+End');
    await panel.getByLabel('Edit comment').pressSequentially(', for forty people');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    panel = await openFromBoard(page, 'WEB-3');
    const edit = panel.getByLabel('Edit comment');
    expect(await edit.inputValue()).toBe('Ask about vegetarian options and the price, for forty people');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    await comment.getByText('the price, for forty people').waitFor();
    expect(await draftKeys(page)).toEqual([]);

    await page.reload();
    await page.getByText('the price, for forty people').waitFor();
    expect(await page.getByLabel('Write a comment').inputValue()).toBe('');
    expect(await page.getByText('Draft', { exact: true }).count()).toBe(0);
  });

  test('a draft of a description someone has changed since is not saved over theirs without a word', async () => {
    const { page } = ada;
    await page.goto(taskUrl(1));
    await page.getByRole('button', { name: 'Edit description' }).click();
    await page.getByLabel('Description (markdown)').press('Control+End');
    await page.getByLabel('Description (markdown)').pressSequentially('\n\nAda: and close at six');
    await page.reload();
    await page.getByLabel('Description (markdown)').waitFor();

    const task = await call<Task>(bob, 'GET', `/workspaces/${slug}/tasks/WEB-1`);
    await call(bob, 'PATCH', `/tasks/${task.id}`, { description: 'Bob: doors at ten' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed the description' });
    await conflict.getByText('Bob: doors at ten').waitFor();
    expect((await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-1`)).description).toBe(
      'Bob: doors at ten',
    );
    expect(ada.errors.some((error) => CONFLICT.test(error))).toBe(true);

    await conflict.getByRole('button', { name: 'Use mine' }).click();
    await page
      .getByRole('region', { name: 'Description' })
      .getByText('Ada: and close at six', { exact: true })
      .waitFor();
    // The panel shows the text at once (optimistic); the save lands a moment later.
    await expect
      .poll(async () => (await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-1`)).description)
      .toBe('## Plan\n\nOpen the doors at nine\n\nAda: and close at six');
    await expect.poll(() => draftKeys(page)).toEqual([]);
  });
});

describe('the task panel', () => {
  test('opens with the card’s data at once while the task is still being read, and is safe to edit', async () => {
    const { page } = ada;
    await page.goto(boardUrl());
    await boardCard(page, 'WEB-2').waitFor();

    // The task's own read waits until the test lets it go.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route(`**/v1/workspaces/${slug}/tasks/WEB-2`, async (route) => {
      held += 1;
      await released;
      // The request may have been given up meanwhile (a save stops a read in flight).
      await route.continue().catch(() => undefined);
    });
    const panel = await openFromBoard(page, 'WEB-2');
    // However long the machine takes to draw it, the task's read is still held meanwhile.
    const atOnce = { timeout: 3_000 };
    await panel.getByRole('button', { name: 'Pick the venue' }).waitFor(atOnce);
    await panel.getByRole('button', { name: 'Status: In progress' }).waitFor(atOnce);
    await panel.getByRole('button', { name: 'Priority: High' }).waitFor(atOnce);
    await panel.getByRole('button', { name: /^Assignee: (?!Unassigned)/ }).waitFor(atOnce);
    await panel.getByRole('button', { name: 'Labels: Launch' }).waitFor(atOnce);
    expect(await panel.getByLabel('Due date').inputValue()).toBe('2031-03-14');
    await panel.getByRole('region', { name: 'Description' }).getByText('near the station').waitFor(atOnce);
    expect(await panel.getByLabel('Loading the task').count()).toBe(0);
    expect(held).toBeGreaterThan(0);
    await saveScreenshots(page, 'task-panel-from-card');

    // A change before the task has been read goes with the card's version, which the API checks.
    await panel.getByRole('button', { name: 'Priority: High' }).click();
    await page.getByRole('menuitemradio', { name: 'Urgent' }).click();
    await expect
      .poll(async () => (await call<Task>(ada, 'GET', `/workspaces/${slug}/tasks/WEB-2`)).priority)
      .toBe('urgent');

    const answered = page.waitForResponse(
      (response) => response.url().endsWith(`/workspaces/${slug}/tasks/WEB-2`) && response.status() === 200,
    );
    release();
    await answered;
    await panel.getByRole('button', { name: 'Priority: Urgent' }).waitFor();
    await panel.getByText('created the task').waitFor();
    expect(await panel.getByLabel('Loading the task').count()).toBe(0);
    await page.unroute(`**/v1/workspaces/${slug}/tasks/WEB-2`);
  });
});

describe('drafts and accounts', () => {
  test('another account signed in in the same browser does not see the draft; signing out removes drafts', async () => {
    const { page } = ada;
    await page.goto(taskUrl(3));
    await page.getByRole('button', { name: 'Add a description' }).click();
    await page.getByLabel('Description (markdown)').pressSequentially('Private: the budget is 40k');
    const kept = await draftKeys(page);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(adaId);

    // Ada's session ends without her signing out here (it expired, or was ended elsewhere); Bob signs in.
    await page.evaluate(() => {
      const storage = (globalThis as unknown as { localStorage: { removeItem(key: string): void } })
        .localStorage;
      for (const key of Object.keys(storage)) if (key.endsWith('-auth-token')) storage.removeItem(key);
    });
    await page.goto(`${webUrl}/sign-in`);
    await submitSignIn(page, bob.email, PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(taskUrl(3));
    await page.getByRole('button', { name: 'Book the caterer' }).waitFor();
    await page.getByRole('button', { name: 'Add a description' }).waitFor();
    expect(await page.getByLabel('Description (markdown)').count()).toBe(0);
    expect(await page.getByText('Private: the budget is 40k').count()).toBe(0);
    expect(await draftKeys(page)).toEqual(kept);

    await page.getByLabel('Write a comment').pressSequentially('Bob was here');
    expect(await draftKeys(page)).toHaveLength(2);
    await signOutInBrowser(page);
    await expect.poll(() => draftKeys(page)).toEqual([]);
  });
});
