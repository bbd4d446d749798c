import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { MailboxMessage } from '../../local/mailbox/mailbox.ts';
import { watchApiCalls } from '../support/browser-api-calls.ts';
import { launchBrowser, watchPageErrors } from '../support/browser.ts';
import { openApi } from '../support/openapi.ts';
import { freshEmail, openAccountPage, signUpInBrowser } from '../support/web-accounts.ts';
import { expectNoSeriousAxeViolations as expectAccessible, sessionTokenOf } from '../support/web-e2e.ts';

const { webUrl, apiUrl, mailboxUrl } = inject('stack');
const API = `${apiUrl}/functions/v1/api`;
const PASSWORD = 'invitations test password';
const SCREENSHOTS = 'test-results/screenshots';

// Chromium logs every 4xx answer: the calls with the revoked token are the test's own, from Node, so
// none is expected in the pages.
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser.close();
});

interface Person {
  context: BrowserContext;
  page: Page;
  email: string;
  errors: string[];
}

async function newPerson(): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  watchApiCalls(page, apiUrl, errors);
  return { context, page, email: freshEmail(), errors };
}

/** A call to the API with `bearer` alone, as an integrator's script makes it. */
async function callApi(bearer: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${API}/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `<screen>-<width>-<scheme>.png` at 1280 and 390 px, light and dark, once `ready` holds. */
async function screenshots(page: Page, screen: string, ready: () => Promise<void>) {
  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme });
      await ready();
      // Colours ease over 120 ms when the scheme changes: let the transitions end.
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${SCREENSHOTS}/${screen}-${width}-${colorScheme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function mailTo(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

describe('an invitation, from the mail to a move on the board (flow 1)', () => {
  const suffix = randomUUID().slice(0, 6);
  const slug = `invite-${suffix}`;
  const workspaceName = `Invite ${suffix}`;
  let owner: Person;
  let invitee: Person;

  beforeAll(async () => {
    owner = await newPerson();
    invitee = await newPerson();
    await signUpInBrowser(owner.page, webUrl, owner.email, PASSWORD, 'Olivia Owner');
    const bearer = await sessionTokenOf(owner.page);
    expect((await callApi(bearer, 'POST', '/workspaces', { name: workspaceName, slug })).status).toBe(201);
    const project = await callApi(bearer, 'POST', `/workspaces/${slug}/projects`, {
      key: 'WEB',
      name: 'Website',
    });
    expect(project.status).toBe(201);
    const task = await callApi(bearer, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'Pick fonts',
    });
    expect(task.status).toBe(201);
  });

  afterAll(async () => {
    expect(owner.errors).toEqual([]);
    expect(invitee.errors).toEqual([]);
    await owner.context.close();
    await invitee.context.close();
  });

  test('the invitee opens the mailed link signed out, sees the workspace, role and inviter, and signs up with the address filled in', async () => {
    const bearer = await sessionTokenOf(owner.page);
    const invited = await callApi(bearer, 'POST', `/workspaces/${slug}/invitations`, {
      email: invitee.email,
      role: 'member',
    });
    expect(invited.status).toBe(201);
    let link = '';
    await expect
      .poll(async () => {
        const [mail] = await mailTo(invitee.email);
        link = mail?.links?.find((candidate) => candidate.includes('/invite/')) ?? '';
        return link;
      })
      .toMatch(/\/invite\/[A-Za-z0-9_-]{43}#email=[^#\s]+$/);

    const { page } = invitee;
    await page.goto(link);
    // Signed out: what the invitation is, before any account exists.
    await page.getByRole('heading', { name: `Join ${workspaceName}` }).waitFor();
    await page
      .getByText(`Olivia Owner invited ${invitee.email} to the workspace ${workspaceName} as a member.`)
      .waitFor();
    await page.getByText('Member: can create and edit tasks and comments.').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'invite-signed-out', () =>
      page.getByRole('link', { name: 'Create account' }).waitFor(),
    );
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(invitee.email);
    // Handed on in the app's own URL, by a navigation inside the app.
    expect(new URL(page.url()).searchParams.get('email')).toBe(invitee.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Display name (optional)').fill('Ivy Invitee');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: `Join ${workspaceName}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
    await page
      .getByText(`Olivia Owner invited ${invitee.email} to the workspace ${workspaceName} as a member.`)
      .waitFor();
    await expectAccessible(page);
    await screenshots(page, 'invite', () =>
      page.getByRole('button', { name: `Accept and join ${workspaceName}` }).waitFor(),
    );
  });

  test('they accept, land in the workspace, and move a task on the board', async () => {
    const { page } = invitee;
    await page.getByRole('button', { name: `Accept and join ${workspaceName}` }).click();
    await page.waitForURL(`${webUrl}/w/${slug}`);
    await page.getByRole('heading', { name: workspaceName, level: 1 }).waitFor();

    await page.goto(`${webUrl}/w/${slug}/p/WEB`);
    const card = page.locator('[data-column="todo"] a[data-task-key="WEB-1"]');
    await card.waitFor();
    const move = page.waitForResponse(
      (response) => response.url().includes('/move') && response.request().method() === 'POST',
    );
    await card.focus();
    await page.keyboard.press('Space');
    await page.getByText(/WEB-1 is over Todo/).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowRight');
    await page.getByText(/WEB-1 is over In progress/).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    expect((await move).status()).toBe(200);
    await page.locator('[data-column="in_progress"] a[data-task-key="WEB-1"]').waitFor();
  });

  test("someone else's invitation shows them the workspace and the role, never the invited address", async () => {
    const bearer = await sessionTokenOf(owner.page);
    const otherAddress = `someone-${randomUUID().slice(0, 8)}@example.com`;
    const invited = await callApi(bearer, 'POST', `/workspaces/${slug}/invitations`, {
      email: otherAddress,
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    const outsider = await newPerson();
    await signUpInBrowser(outsider.page, webUrl, outsider.email, PASSWORD, 'Oscar Outsider');
    const { page } = outsider;
    await page.goto((invited.body as { accept_url: string }).accept_url);
    await page
      .getByText(`Olivia Owner sent this invitation to join the workspace ${workspaceName} as a viewer.`)
      .waitFor();
    await page.getByRole('button', { name: 'Sign out and switch account' }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain(otherAddress);
    await expectAccessible(page);
    await screenshots(page, 'invite-other-address', () =>
      page.getByRole('button', { name: 'Sign out and switch account' }).waitFor(),
    );
    expect(outsider.errors).toEqual([]);
    await outsider.context.close();
  });
});

describe('a read token made on the account page (flow 4)', () => {
  const slug = `tokens-${randomUUID().slice(0, 6)}`;
  let person: Person;

  beforeAll(async () => {
    person = await newPerson();
    await signUpInBrowser(person.page, webUrl, person.email, PASSWORD, 'Tara Tokens');
    const bearer = await sessionTokenOf(person.page);
    await callApi(bearer, 'POST', '/workspaces', { name: 'Tokens', slug });
    await callApi(bearer, 'POST', `/workspaces/${slug}/projects`, { key: 'OPS', name: 'Operations' });
    await callApi(bearer, 'POST', `/workspaces/${slug}/projects/OPS/tasks`, { title: 'Rotate keys' });
  });

  afterAll(async () => {
    expect(person.errors).toEqual([]);
    await person.context.close();
  });

  test('lists the tasks with only that token, is refused a write, and is 401 once revoked', async () => {
    const { page } = person;
    await openAccountPage(page);
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByText('No tokens yet.').waitFor();
    await section.getByLabel('Name').fill('Reports');
    await section.getByLabel('Read').check();
    await section.getByLabel('Expires after').selectOption('30');
    await section.getByRole('button', { name: 'Create token' }).click();

    const secret = await section.getByTestId('new-api-token').inputValue();
    expect(secret).toMatch(/^tl_pat_[0-9A-Za-z]{43}$/);
    expect(await section.getByTestId('new-api-token-curl').inputValue()).toBe(
      `curl -s ${API}/v1/workspaces -H "Authorization: Bearer ${secret}"`,
    );
    const row = section.getByTestId('api-token-row').filter({ hasText: 'Reports' });
    await row.getByText('read', { exact: true }).waitFor();
    await row.getByText(secret.slice(0, 11)).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'account-tokens', () => section.getByTestId('new-api-token').waitFor());

    const tasks = await callApi(secret, 'GET', `/workspaces/${slug}/tasks`);
    expect(tasks.status).toBe(200);
    expect((tasks.body.data as { title: string }[]).map((task) => task.title)).toEqual(['Rotate keys']);
    const write = await callApi(secret, 'POST', `/workspaces/${slug}/projects/OPS/tasks`, { title: 'No' });
    expect([write.status, write.body.code]).toEqual([403, 'insufficient_scope']);

    await section.getByRole('button', { name: 'Done, I have copied it' }).click();
    await section.getByTestId('new-api-token').waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Revoke Reports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Reports”?' });
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Token “Reports” revoked.').waitFor();
    await row.getByText('Revoked').waitFor();
    expect((await callApi(secret, 'GET', `/workspaces/${slug}/tasks`)).status).toBe(401);
  });
});

describe('the API reference (flow 6)', () => {
  let person: Person;

  beforeAll(async () => {
    person = await newPerson();
  });

  afterAll(async () => {
    expect(person.errors).toEqual([]);
    await person.context.close();
  });

  test('/docs/api lists every operation of openapi.yaml and shows the base URL of this stack', async () => {
    const { page } = person;
    const offSite: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(webUrl).origin && url.origin !== new URL(apiUrl).origin)
        offSite.push(url.href);
    });
    await page.goto(`${webUrl}/docs/api`);
    await page.getByRole('heading', { name: 'API reference', level: 1 }).waitFor();
    expect(await page.getByTestId('api-base-url').inputValue()).toBe(API);

    const operations = Object.values(openApi.paths ?? {}).flatMap((item) =>
      ['get', 'post', 'patch', 'put', 'delete'].flatMap((method) => {
        const operation = (item as Record<string, { summary?: string } | undefined>)[method];
        return operation ? [operation.summary ?? ''] : [];
      }),
    );
    expect(operations.length).toBeGreaterThan(40);
    for (const summary of operations) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: 'attached' });
    }
    expect(offSite).toEqual([]);
    await expectAccessible(page);
    // At 390 px Scalar folds its sidebar away: the operations stay in the page, off screen.
    await screenshots(page, 'docs-api', () =>
      page
        .getByText(operations[0] ?? '')
        .first()
        .waitFor({ state: 'attached' }),
    );

    await page.getByRole('link', { name: 'the tour with curl' }).click();
    await page.getByRole('heading', { name: 'A tour of the API with curl' }).waitFor();
  });
});
