import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import {
  authenticatorFor,
  expectSignedInAs,
  freshEmail,
  openAccountPage,
  signOutInBrowser,
  signUpInBrowser,
  submitCode,
  submitSignIn,
  wrongCode,
} from '../support/web-accounts.ts';

const { webUrl, mailboxUrl } = inject('stack');
const INVALID_CREDENTIALS = 'That e-mail and password do not match an account.';
const WRONG_CODE = 'That code is not right. Enter the current 6-digit code from your authenticator app.';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
});

/** A fresh browser profile whose page errors fail the test, except failed requests the test expects. */
async function openProfile() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const unexpectedErrors = (...expected: RegExp[]) =>
    errors.filter((error) => !expected.some((pattern) => pattern.test(error)));
  return { context, page, unexpectedErrors };
}

// Chromium logs every 4xx answer; these are the ones the tests provoke on purpose.
const failedSignIn = /Failed to load resource: the server responded with a status of 400/;
const failedVerify = /Failed to load resource: the server responded with a status of 422/;

describe('an account with two-factor sign-in and a forgotten password', () => {
  const email = freshEmail();
  const firstPassword = 'first password 1';
  const newPassword = 'second password 2';
  let context: BrowserContext;
  let page: Page;
  let unexpectedErrors: (...expected: RegExp[]) => string[];
  let app: TOTP;
  let recoveryLink: string;

  beforeAll(async () => {
    ({ context, page, unexpectedErrors } = await openProfile());
  });

  afterAll(async () => {
    expect(unexpectedErrors(failedSignIn, failedVerify)).toEqual([]);
    await context.close();
  });

  test('signing up lands signed in on /new, to create a first workspace', async () => {
    await signUpInBrowser(page, webUrl, email, firstPassword);

    expect(new URL(page.url()).pathname).toBe('/new');
  });

  test('the account page sets up an authenticator app with a QR code and a copyable secret', async () => {
    await openAccountPage(page);
    await page.getByText(`Signed in as ${email}`).waitFor();
    await page.getByTestId('api-health').getByText('API healthy').waitFor();

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = await page.getByTestId('totp-secret').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qrCode = page.getByRole('img', { name: /QR code/ });
    expect(await qrCode.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    app = authenticatorFor(secret);

    await submitCode(page, app.generate(), 'Turn on two-factor authentication');
    await page.getByText('Two-factor authentication is on.').waitFor();
    await page.getByRole('button', { name: 'Remove' }).waitFor();
  });

  test('signing in again asks for a code, refuses a wrong one and returns to the page asked for', async () => {
    await signOutInBrowser(page);

    await page.goto(`${webUrl}/account`);
    await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/account');
    await submitSignIn(page, email, firstPassword);

    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    const codeInput = page.getByLabel('6-digit code');
    expect(await codeInput.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeInput.getAttribute('inputmode')).toBe('numeric');
    await submitCode(page, wrongCode(app), 'Verify');
    await page.getByText(WRONG_CODE).waitFor();

    await submitCode(page, app.generate(), 'Verify');
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await page.getByRole('button', { name: 'Remove' }).waitFor();
  });

  test('a forgotten password is reset from the link in the e-mail, after the code', async () => {
    await signOutInBrowser(page);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${email}, we sent it a link`).waitFor();

    recoveryLink = await recoveryLinkFor(email);
    expect(new URL(recoveryLink).searchParams.get('redirect_to')).toBe(`${webUrl}/reset-password`);
    await page.goto(recoveryLink);

    // The account has an authenticator app, so Supabase Auth wants aal2 before a password change.
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await submitCode(page, app.generate(), 'Continue');

    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(`${newPassword}!`);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('The two passwords do not match.').waitFor();

    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password was changed. You are signed in.').waitFor();
    await expectSignedInAs(page, email);
    // Home, for someone without a workspace yet, is /new.
    expect(new URL(page.url()).pathname).toBe('/new');
  });

  test('afterwards the old password is refused and the new one signs in', async () => {
    await signOutInBrowser(page);

    await submitSignIn(page, email, firstPassword);
    await page.getByRole('alert').getByText(INVALID_CREDENTIALS).waitFor();

    await submitSignIn(page, email, newPassword);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await submitCode(page, app.generate(), 'Verify');
    await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
    await expectSignedInAs(page, email);
  });

  test('a recovery link works once; opened again it explains itself and offers a new one', async () => {
    await page.goto(recoveryLink);

    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    await page.getByRole('alert').getByText('This link is invalid or has expired.').waitFor();
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  });

  test('removing the authenticator app makes signing in ask for the password only', async () => {
    await openAccountPage(page);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove authenticator app' }).click();
    await page.getByText('Two-factor authentication is off.').waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();

    // Signing out here comes back here after signing in, with no code step in between.
    await signOutInBrowser(page);
    await submitSignIn(page, email, newPassword);
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();
  });
});

describe('the account page', () => {
  const email = freshEmail();
  const password = 'plain password 1';
  let context: BrowserContext;
  let page: Page;
  let unexpectedErrors: (...expected: RegExp[]) => string[];

  beforeAll(async () => {
    ({ context, page, unexpectedErrors } = await openProfile());
  });

  afterAll(async () => {
    expect(unexpectedErrors()).toEqual([]);
    await context.close();
  });

  test('a signed-out visit goes through sign-in and back to /account', async () => {
    await signUpInBrowser(page, webUrl, email, password, 'Grace Hopper');
    await signOutInBrowser(page);

    await page.goto(`${webUrl}/account`);
    await submitSignIn(page, email, password);

    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();
  });

  test('the display name chosen at sign-up is shown, and a new one is saved through the API', async () => {
    const displayName = page.getByLabel('Display name');
    expect(await displayName.inputValue()).toBe('Grace Hopper');

    await displayName.fill(' ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Display name must not be empty.').waitFor();

    await displayName.fill('  Grace B. Hopper ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your display name was saved.').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await expect.poll(() => displayName.inputValue()).toBe('Grace B. Hopper');
  });

  test('signing out everywhere ends the session and says so', async () => {
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();

    await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
    await page.getByText('You were signed out on every device.').waitFor();
    await page.goto(`${webUrl}/account`);
    await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
  });
});

test('asking to reset the password of an unknown address answers the same and sends nothing', async () => {
  const email = freshEmail();
  const { context, page, unexpectedErrors } = await openProfile();

  await page.goto(`${webUrl}/forgot-password`);
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();

  await page.getByText(`If an account exists for ${email}, we sent it a link`).waitFor();
  expect(await messagesTo(email)).toEqual([]);
  expect(unexpectedErrors()).toEqual([]);
  await context.close();
});

interface MailboxMessage {
  subject: string;
  links?: string[];
}

async function messagesTo(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

async function recoveryLinkFor(email: string): Promise<string> {
  const [newest] = await messagesTo(email);
  const link = newest?.links?.find((candidate) => candidate.includes('/auth/v1/verify?'));
  if (!link) throw new Error(`no recovery link in the newest mail to ${email}`);
  expect(new URL(link).searchParams.get('type')).toBe('recovery');
  return link;
}
