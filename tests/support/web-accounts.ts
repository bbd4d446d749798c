/** Browser steps shared by the e2e tests: creating and signing into accounts through the web app's screens. */
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';

export function freshEmail(): string {
  return `e2e-${randomUUID()}@example.com`;
}

/** Signs up through /sign-up and waits for the first screen, /new, and the header to say who is signed in. */
export async function signUpInBrowser(
  page: Page,
  webUrl: string,
  email: string,
  password: string,
  displayName = '',
) {
  await page.goto(`${webUrl}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Display name (optional)').fill(displayName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
  await expectSignedInAs(page, email);
}

/** Opens the header's account menu, waits for it to name `email`, and closes it again. */
export async function expectSignedInAs(page: Page, email: string) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menu').getByTestId('signed-in-as').getByText(email, { exact: true }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
}

/** Goes to /account through the header's account menu. */
export async function openAccountPage(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
}

/** Fills and sends the sign-in form of the page it is on. */
export async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs out with the header's account menu and waits for the sign-in screen. */
export async function signOutInBrowser(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Tasklane' }).waitFor();
}

/** An authenticator app for the secret the account screen shows, as GoTrue configures TOTP. */
export function authenticatorFor(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** A 6-digit code that the server's ±1 step window cannot accept now. */
export function wrongCode(app: TOTP): string {
  const accepted = new Set([-1, 0, 1].map((step) => app.generate({ timestamp: Date.now() + step * 30_000 })));
  for (let candidate = 0; ; candidate += 111_111) {
    const code = String(candidate % 1_000_000).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}

/** Enters a code in the page's one-time-code field and submits its form. */
export async function submitCode(page: Page, code: string, button: string) {
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: button }).click();
}
