import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { MailboxMessage } from '../../local/mailbox/mailbox.ts';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { verifyLinkIn } from '../support/mailbox-client.ts';
import { expectSignedInAs, freshEmail, signUpInBrowser } from '../support/web-accounts.ts';
import { expectNoSeriousAxeViolations, saveScreenshots } from '../support/web-e2e.ts';

const { webUrl, mailboxUrl } = inject('stack');
const PASSWORD = 'correct horse battery';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
});

async function mailTo(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

/** A fresh browser profile on /sign-in, its page errors collected. */
async function openSignIn() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${webUrl}/sign-in`);
  await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
  return { context, page, errors };
}

describe('signing in with a link by e-mail', () => {
  test('"E-mail me a link" sends a link, says "Check your inbox", and the link lands signed in', async () => {
    const email = freshEmail();
    const signUp = await browser.newContext();
    await signUpInBrowser(await signUp.newPage(), webUrl, email, PASSWORD);
    await signUp.close();

    const { context, page, errors } = await openSignIn();
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'sign-in-with-link-option');
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await page.getByRole('heading', { name: 'Sign in with a link' }).waitFor();
    await saveScreenshots(page, 'sign-in-with-link');

    // Held back a moment, so that the button's sending state shows.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/v1/otp**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    const sending = page.getByRole('button', { name: 'Sending…' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    release();

    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByText(`We sent a sign-in link to ${email}.`, { exact: false }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'sign-in-link-sent');
    const [mail, ...others] = (await mailTo(email)).filter(
      (message) => message.subject === 'Your sign-in link',
    );
    expect(others).toEqual([]);

    await page.goto(verifyLinkIn(mail as MailboxMessage));
    await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
    await expectSignedInAs(page, email);
    expect(new URL(page.url()).hash).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an address without an account is told so next to the field, and no account is made', async () => {
    const email = freshEmail();
    const { context, page, errors } = await openSignIn();
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();

    await page.getByText('No account uses this address. Check it, or sign up.').waitFor();
    expect(await page.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(await mailTo(email)).toEqual([]);
    expect(errors.filter((error) => !/status of 422/.test(error))).toEqual([]);

    await page.getByRole('button', { name: 'Use a password instead' }).click();
    await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
    await context.close();
  });
});
