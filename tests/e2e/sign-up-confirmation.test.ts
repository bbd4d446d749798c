import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { latestMailTo, mailTo, verifyLinkIn } from '../support/mailbox-client.ts';
import { standInApiKeys, supabaseClient, uniqueEmails } from '../support/stand-in-auth.ts';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';
import { expectNoSeriousAxeViolations, saveScreenshots } from '../support/web-e2e.ts';

const PASSWORD = 'correct horse battery';

// A stack of its own with confirmations on, as hosted projects usually have them (the usability review item
// 14).
describe('an invitee signs up on a project that confirms e-mail addresses', () => {
  let standIn: StandInProcess;
  let browser: Browser;
  const newEmail = uniqueEmails('confirm');

  beforeAll(async () => {
    standIn = await startStandIn({ web: true, env: { TASKLANE_AUTH_EMAIL_CONFIRMATIONS: 'on' } });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await standIn?.dispose();
  });

  /** An owner (confirmed by the admin API) invites `email` to a new workspace: the invitation's token. */
  async function invite(email: string): Promise<string> {
    const { serviceRoleKey, anonKey } = await standInApiKeys(standIn);
    const owner = newEmail();
    const admin = supabaseClient(standIn.apiUrl, serviceRoleKey).auth.admin;
    expect(
      (await admin.createUser({ email: owner, password: PASSWORD, email_confirm: true })).error,
    ).toBeNull();
    const signedIn = await supabaseClient(standIn.apiUrl, anonKey).auth.signInWithPassword({
      email: owner,
      password: PASSWORD,
    });
    const token = signedIn.data.session?.access_token ?? '';
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${standIn.apiUrl}/functions/v1/api/v1${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()) as { accept_url?: string };
    };
    const slug = `acme-${Date.now()}`;
    await call('/workspaces', { name: 'Acme', slug });
    const invitation = await call(`/workspaces/${slug}/invitations`, { email, role: 'member' });
    return new URL(invitation.accept_url ?? '').pathname.split('/').pop() ?? '';
  }

  test('"Check your e-mail" names the address; Resend waits, sends a second link; the link returns to the invitation', async () => {
    const email = newEmail();
    const token = await invite(email);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.clock.install();

    await page.goto(`${standIn.webUrl}/invite/${token}`);
    await page.getByRole('heading', { name: 'Join Acme' }).waitFor();
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByText(`We sent a link to ${email}.`, { exact: false }).waitFor();
    await page.getByText('it signs you in and opens your invitation', { exact: false }).waitFor();
    const resend = page.getByRole('button', { name: /^Resend/ });
    expect(await resend.textContent()).toBe('Resend in 60 s');
    expect(await resend.isDisabled()).toBe(true);
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'sign-up-check-your-e-mail');
    // Besides the invitation's own mail.
    const confirmations = async () =>
      (await mailTo(standIn, email)).filter(
        (mail) => mail.subject === 'Confirm your e-mail address for Tasklane',
      );
    expect(await confirmations()).toHaveLength(1);

    await page.clock.fastForward(61_000);
    await page.getByRole('button', { name: 'Resend', exact: true }).click();
    await page.getByText(`We sent another link to ${email}.`).waitFor();
    expect(await resend.textContent()).toMatch(/^Resend in (60|59) s$/);
    const mails = await confirmations();
    expect(mails).toHaveLength(2);

    await page.goto(verifyLinkIn(mails[0] ?? (await latestMailTo(standIn, email))));
    await page.getByRole('button', { name: 'Accept and join Acme' }).click();
    await page.waitForURL(/\/w\/acme-\d+/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
