/**
 * Notifications in the web: Maya mentions Leo in a comment through the API; Leo's open page shows
 * the bell's count go to 1 live, without a reload. His inbox lists it with the comment's excerpt (the mention
 * as his name); the keyboard archives another notification (j, e) and opens the mention (Enter), which shows
 * the task with the comment highlighted and marks the notification read, so the badge goes. Screenshots of
 * the inbox at 1280 and 390 px, light and dark.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  expectNoSeriousAxeViolations,
  saveScreenshots,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl } = inject('stack');
const PASSWORD = 'inbox test password';
/** Live means well under a second; the waits allow five so a busy machine does not fail the run. */
const LIVE = { timeout: 5_000 };

const { signUp, call } = useBrowserPeople(PASSWORD);

const bell = (page: Page, unread: number) =>
  page.getByRole('link', { name: `Notifications, ${unread} unread`, exact: true });
const row = (page: Page, text: string) => page.locator('[data-notification-id]').filter({ hasText: text });

describe('the inbox', () => {
  let maya: Person;
  let leo: Person;
  let leoId = '';
  let taskId = '';
  const slug = `inbox-${Date.now().toString(36)}`;

  beforeAll(async () => {
    maya = await signUp();
    leo = await signUp();
    await call(maya, 'PATCH', '/me', { display_name: 'Maya' });
    leoId = (await call<{ id: string }>(leo, 'PATCH', '/me', { display_name: 'Leo' })).id;
    await call(maya, 'POST', '/workspaces', { name: 'Acme', slug });
    await call(maya, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
    const task = await call<{ id: string }>(maya, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'Fix the login redirect',
    });
    taskId = task.id;
    const invite = await call<{ accept_url: string }>(maya, 'POST', `/workspaces/${slug}/invitations`, {
      email: leo.email,
      role: 'member',
    });
    await call(leo, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
  }, 120_000);

  afterAll(async () => {
    for (const person of [maya, leo]) {
      if (!person) continue;
      expect(person.errors).toEqual([]);
      await person.context.close();
    }
  });

  test('a mention reaches the bell live, and opening it shows the comment and reads it', async () => {
    const { page } = leo;
    await page.goto(`${webUrl}/w/${slug}`);
    await bell(page, 0).waitFor();
    // The user topic is joined once the realtime client has loaded; give the join a moment.
    await page.waitForTimeout(1_000);

    const comment = await call<{ id: string }>(maya, 'POST', `/tasks/${taskId}/comments`, {
      body: `<@${leoId}> can you look at this?`,
    });
    const answered = Date.now();
    await bell(page, 1).waitFor(LIVE);
    console.log(`mention→badge ms: ${Date.now() - answered}`);
    expect(await page.getByTestId('unread-badge').textContent()).toBe('1');
    await saveScreenshots(page, 'inbox-bell', () => bell(page, 1).waitFor());

    // A second one, to archive from the keyboard.
    await call(maya, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'Update the pricing page',
      assignee_id: leoId,
    });
    await bell(page, 2).waitFor(LIVE);

    await bell(page, 2).click();
    await page.waitForURL(`${webUrl}/inbox`);
    const mention = row(page, 'Maya mentioned you on WEB-1 · Fix the login redirect');
    await mention.waitFor();
    await mention.getByText('@Leo can you look at this?').waitFor();
    const assigned = row(page, 'Maya assigned you WEB-2 · Update the pricing page');
    await assigned.waitFor();
    await page.getByRole('heading', { name: 'Today' }).waitFor();

    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'inbox', () => mention.waitFor());

    // The newest first: j selects the assignment, e archives it and the mention takes the selection.
    await page.keyboard.press('j');
    await expect.poll(() => assigned.getAttribute('data-selected')).toBe('true');
    await page.keyboard.press('e');
    await assigned.waitFor({ state: 'detached', ...LIVE });
    await expect.poll(() => mention.getAttribute('data-selected')).toBe('true');
    await bell(page, 1).waitFor(LIVE);

    await page.keyboard.press('Enter');
    await page.waitForURL(`${webUrl}/w/${slug}/p/WEB/t/1#comment-${comment.id}`);
    const highlighted = page.locator(`#comment-${comment.id}[data-highlighted]`);
    await highlighted.waitFor();
    expect(await highlighted.isVisible()).toBe(true);
    await highlighted.getByText('@Leo can you look at this?').waitFor();
    await page.getByTestId('unread-badge').waitFor({ state: 'detached', ...LIVE });
    await saveScreenshots(page, 'inbox-opened-comment', () => highlighted.waitFor());
    // The panel is modal: the header is out of reach until it closes.
    await page.keyboard.press('Escape');
    await bell(page, 0).waitFor(LIVE);

    // Gone from the inbox's list only when archived: the archived view has the assignment.
    await page.goto(`${webUrl}/inbox?archived=true`);
    await row(page, 'Maya assigned you WEB-2').waitFor();
    await page.goto(`${webUrl}/inbox?unread=true`);
    await page.getByText('You’re all caught up.').waitFor();
    await saveScreenshots(page, 'inbox-caught-up', () => page.getByText('You’re all caught up.').waitFor());
  }, 120_000);
});
