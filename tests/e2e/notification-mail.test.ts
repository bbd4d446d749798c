/**
 * Notification mail from the web's side: Maya mentions Leo in a comment through the API; the
 * stand-in's scheduler (every half second, no batch window in the browser tests' stack) mails Leo. The
 * mail's task link opens the task at the comment; its unsubscribe link opens a page that changes nothing
 * until Leo clicks "Turn off these e-mails". Maya mentions him again: his inbox has it, his mailbox not.
 * Screenshots of the unsubscribe page before and after, the account page's Notifications section, the
 * task panel's watch control and the mailbox with the mail.
 */
import type { MailboxMessage } from '../../local/mailbox/mailbox.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  expectNoSeriousAxeViolations,
  saveScreenshots,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, mailboxUrl } = inject('stack');
const PASSWORD = 'notification mail test password';
/** The scheduler runs every 500 ms; a few runs is long enough for a mail that will come. */
const SCHEDULER_RUNS_MS = 3_000;

const { signUp, call } = useBrowserPeople(PASSWORD);

async function mailTo(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

/** The notification mails to `email` (not the sign-up's). */
const notificationMailTo = async (email: string) =>
  (await mailTo(email)).filter((mail) => mail.links?.some((link) => link.includes('/unsubscribe/')));

describe('notification mail', () => {
  let maya: Person;
  let leo: Person;
  let leoId = '';
  let taskId = '';
  const slug = `mail-${Date.now().toString(36)}`;

  beforeAll(async () => {
    maya = await signUp();
    leo = await signUp();
    await call(maya, 'PATCH', '/me', { display_name: 'Maya' });
    leoId = (await call<{ id: string }>(leo, 'PATCH', '/me', { display_name: 'Leo' })).id;
    await call(maya, 'POST', '/workspaces', { name: 'Acme', slug });
    await call(maya, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
    taskId = (
      await call<{ id: string }>(maya, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
        title: 'Fix the login redirect',
      })
    ).id;
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

  test('a mention is mailed; the mail links to the comment and unsubscribes on a click', async () => {
    const { page } = leo;
    const comment = await call<{ id: string }>(maya, 'POST', `/tasks/${taskId}/comments`, {
      body: `<@${leoId}> can you look at this?`,
    });

    await expect.poll(() => notificationMailTo(leo.email), { timeout: 15_000 }).toHaveLength(1);
    const [mail] = await notificationMailTo(leo.email);
    if (!mail) throw new Error('no notification mail');
    expect(mail.subject).toContain('Maya mentioned you');
    const taskLink = mail.links?.find((link) => link.includes('/t/1'));
    const unsubscribeLink = mail.links?.find((link) => link.includes('/unsubscribe/'));
    expect(taskLink).toBe(`${webUrl}/w/${slug}/p/WEB/t/1#comment-${comment.id}`);
    if (!taskLink || !unsubscribeLink) throw new Error('the mail lacks its links');

    // The mailbox page, as a person would see the mail.
    await page.goto(`${mailboxUrl}/`);
    await page.getByText(mail.subject).first().waitFor();
    await saveScreenshots(page, 'notification-mail-mailbox', () =>
      page.getByText(mail.subject).first().waitFor(),
    );

    // The task link: the task, the comment highlighted, and the watch control (Leo watches: mentioned).
    await page.goto(taskLink);
    const highlighted = page.locator(`#comment-${comment.id}[data-highlighted]`);
    await highlighted.waitFor();
    const watch = page.getByRole('button', { name: 'Watching', exact: true });
    await watch.waitFor();
    expect(await watch.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: '2 watching: show who' }).click();
    const watchers = page.getByRole('dialog', { name: 'Watchers' });
    await watchers.getByText('Maya').waitFor();
    await watchers.getByText('Leo').waitFor();
    await page.keyboard.press('Escape');
    await watchers.waitFor({ state: 'detached' });
    await saveScreenshots(page, 'notification-watch-control', () => watch.waitFor());
    await page.keyboard.press('Escape');

    // The unsubscribe page changes nothing on its own (mail scanners open links).
    await page.goto(unsubscribeLink);
    const turnOff = page.getByRole('button', { name: 'Turn off these e-mails' });
    await turnOff.waitFor();
    await page.getByText('You will no longer get e-mails about mentions.').waitFor();
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'notification-unsubscribe', () => turnOff.waitFor());
    await turnOff.click();
    const done = page.getByText('Your inbox in Tasklane still tells you.');
    await done.waitFor();
    await page.getByText('Done.').waitFor();
    await saveScreenshots(page, 'notification-unsubscribed', () => done.waitFor());

    // Its link leads to the settings, where mentions now stay in the inbox.
    await page.getByRole('link', { name: 'Choose how you hear of each kind of notification' }).click();
    await page.waitForURL(`${webUrl}/account#notifications`);
    const mentions = page.getByLabel('Mentions');
    await expect.poll(() => mentions.inputValue()).toBe('inbox');
    const section = page.locator('#notifications');
    await saveScreenshots(page, 'notification-settings', () => section.waitFor());

    // A second mention: the inbox has it, the mailbox does not.
    await call(maya, 'POST', `/tasks/${taskId}/comments`, { body: `<@${leoId}> and this one?` });
    await page.goto(`${webUrl}/inbox`);
    await page.locator('[data-notification-id]').filter({ hasText: 'and this one?' }).waitFor();
    await page.waitForTimeout(SCHEDULER_RUNS_MS);
    expect(await notificationMailTo(leo.email)).toHaveLength(1);
  }, 180_000);

  test('a delivery chosen on the account page is saved', async () => {
    const { page } = leo;
    await page.goto(`${webUrl}/account#notifications`);
    const comments = page.getByLabel('Comments on tasks you watch');
    await expect.poll(() => comments.inputValue()).toBe('inbox');
    await comments.selectOption('email_digest');
    await expect
      .poll(
        async () =>
          (await call<{ deliveries: { commented: string } }>(leo, 'GET', '/me/notification-settings'))
            .deliveries.commented,
      )
      .toBe('email_digest');
  }, 60_000);
});
