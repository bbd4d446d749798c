/**
 * The second security review, item 3, in the browser: someone whose board is open when they lose access to
 * the workspace — it turns MFA on while their session has not verified a second factor, or they are removed —
 * sees none of the changes made after that. The workspace's messages carry no content (docs/realtime.md): the
 * board reads each change through the API, which now refuses, and the workspace says why in place of the
 * board. Nothing of a later change reaches that browser, on screen or on its socket.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { authenticatorFor, openAccountPage, submitCode } from '../support/web-accounts.ts';
import { boardCard as card, callApiAs, signUpPerson, type Person } from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'realtime access test password';
const LIVE = { timeout: 5_000 };
/** Chromium logs each refused request; these are the refusals the tests are about. */
const REFUSED = /Failed to load resource: the server responded with a status of (403|404)/;

interface Task {
  id: string;
  version: number;
}

let browser: Browser;
let owner: Person;
let member: Person;
const slug = `access-${Date.now().toString(36)}`;
const boardUrl = () => `${webUrl}/w/${slug}/p/ACC`;

const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
  callApiAs<T>(apiUrl, person.page, method, path, body);

/** What a page's WebSockets received, as text (kind-4 frames carry their JSON payload as text too). */
function framesOf(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => frames.push(payload.toString())),
  );
  return frames;
}

/** The owner's board session verifies a second factor (set up on the account page): it is then aal2. */
async function verifySecondFactor(person: Person): Promise<void> {
  const { page } = person;
  await openAccountPage(page);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = await page.getByTestId('totp-secret').inputValue();
  await submitCode(page, authenticatorFor(secret).generate(), 'Turn on two-factor authentication');
  await page.getByText('Two-factor authentication is on.').waitFor();
}

async function retitle(key: string, title: string): Promise<void> {
  const task = await call<Task>(owner, 'GET', `/workspaces/${slug}/tasks/${key}`);
  await call(owner, 'PATCH', `/tasks/${task.id}`, { title });
}

/** The member's board shows the card's title, and its channel is joined. */
async function boardOpenAt(key: string, title: string): Promise<void> {
  await card(member.page, key).getByText(title).waitFor(LIVE);
  await member.page.locator('[data-connection="live"]').waitFor({ state: 'attached', ...LIVE });
}

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  member = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  await call(owner, 'POST', '/workspaces', { name: 'Access test', slug });
  await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'ACC', name: 'Access' });
  for (const title of ['Plan', 'Budget'])
    await call(owner, 'POST', `/workspaces/${slug}/projects/ACC/tasks`, { title, status: 'todo' });
  const invite = await call<{ accept_url: string }>(owner, 'POST', `/workspaces/${slug}/invitations`, {
    email: member.email,
    role: 'member',
  });
  await call(member, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
}, 120_000);

afterAll(async () => {
  for (const person of [owner, member]) {
    if (!person) continue;
    expect(person.errors.filter((error) => !REFUSED.test(error))).toEqual([]);
    await person.context.close();
  }
  await browser?.close();
});

describe('a board open when its person loses access to the workspace', () => {
  test('an aal1 session, when the workspace turns MFA on, is shown no later change and is told why', async () => {
    const frames = framesOf(member.page);
    await member.page.goto(boardUrl());
    await boardOpenAt('ACC-1', 'Plan');
    // Live so far: a change shows.
    await retitle('ACC-2', 'Budget v2');
    await boardOpenAt('ACC-2', 'Budget v2');

    await verifySecondFactor(owner);
    await call(owner, 'PATCH', `/workspaces/${slug}`, { require_mfa: true });
    await retitle('ACC-1', 'Secret plan');

    await member.page.getByText(/could not be loaded: .* requires two-factor authentication/).waitFor(LIVE);
    expect(await member.page.getByText('Secret plan').count()).toBe(0);
    expect(frames.filter((frame) => frame.includes('Secret plan'))).toEqual([]);
  });

  test('a removed member is shown no later change, and the workspace says it is not theirs', async () => {
    await call(owner, 'PATCH', `/workspaces/${slug}`, { require_mfa: false });
    const frames = framesOf(member.page);
    await member.page.goto(boardUrl());
    await boardOpenAt('ACC-1', 'Secret plan');

    const me = await call<{ id: string }>(member, 'GET', '/me');
    const removed = await fetch(`${apiUrl}/functions/v1/api/v1/workspaces/${slug}/members/${me.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${await owner.token()}` },
    });
    expect(removed.status).toBe(204);
    await retitle('ACC-2', 'Layoffs');

    await member.page.getByRole('heading', { name: 'Workspace not found' }).waitFor(LIVE);
    expect(await member.page.getByText('Layoffs').count()).toBe(0);
    expect(frames.filter((frame) => frame.includes('Layoffs'))).toEqual([]);
  });
});
