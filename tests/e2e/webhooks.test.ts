/**
 * Settings → Webhooks in the browser: the owner adds a webhook to a receiver on loopback, sees its secret
 * once, watches a task's delivery succeed in the log, opens it, redelivers it and sends a test ping; an
 * address that is not public is refused on the URL field; a member has no Webhooks tab.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  expectNoSeriousAxeViolations as expectAccessible,
  saveScreenshots as screenshots,
  SCREENSHOTS,
  useBrowserPeople,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl } = inject('stack');
const { signUp, call } = useBrowserPeople('webhooks test password');

// Chromium logs every 4xx answer; the test provokes this one on purpose (an address that is not public).
const refusedUrl = /Failed to load resource: the server responded with a status of 422/;

interface Received {
  headers: IncomingHttpHeaders;
  body: { type: string };
}

/** A receiver on loopback that answers 200 to every POST and keeps what it got. */
function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body: JSON.parse(text) as Received['body'] });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/tasklane-hook`, received });
    });
  });
}

/** Runs in the page, where `navigator` exists; the tests' types have no DOM. */
function readClipboard(): Promise<string> {
  const { navigator } = globalThis as unknown as {
    navigator: { clipboard: { readText: () => Promise<string> } };
  };
  return navigator.clipboard.readText();
}

describe('an owner runs the workspace’s webhooks', () => {
  const slug = `hooks-${randomUUID().slice(0, 6)}`;
  let owner: Person;
  let member: Person;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    receiver = await startReceiver();
    owner = await signUp();
    member = await signUp();
    page = owner.page;
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: webUrl });
    await call(owner, 'PATCH', '/me', { display_name: 'Olivia Owner' });
    await call(owner, 'POST', '/workspaces', { name: 'Webhooks test', slug });
    await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'HOOK', name: 'Hooks' });
    const invite = await call<{ accept_url: string }>(owner, 'POST', `/workspaces/${slug}/invitations`, {
      email: member.email,
      role: 'member',
    });
    await call(member, 'POST', `/invitations/${invite.accept_url.split('/').at(-1) ?? ''}/accept`);
  }, 120_000);

  afterAll(async () => {
    expect(owner.errors.filter((error) => !refusedUrl.test(error))).toEqual([]);
    expect(member.errors).toEqual([]);
    await owner.context.close();
    await member.context.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  test('the empty state, an address refused on the URL field, then a webhook added with its secret once', async () => {
    await page.goto(`${webUrl}/w/${slug}/settings/general`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'webhooks-empty', () => page.getByText('No webhooks yet.').waitFor());

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook' });
    await add.getByLabel('URL').fill('https://10.0.0.1/x');
    await add.getByRole('checkbox', { name: 'Everything (*)' }).check();
    await add.getByRole('button', { name: 'Add webhook' }).click();
    await add.getByText(/^URL points at an address that is not public/).waitFor();
    expect(await add.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await screenshots(page, 'webhooks-add-refused', () => add.getByText(/not public/).waitFor());

    await add.getByRole('checkbox', { name: 'Everything (*)' }).uncheck();
    await add.getByLabel('URL').fill(receiver.url);
    await add.getByRole('checkbox', { name: 'All of task (task.*)' }).check();
    await add.getByRole('checkbox', { name: 'comment.created' }).check();
    await add.getByRole('button', { name: 'Add webhook' }).click();

    const added = page.getByRole('dialog', { name: 'Webhook added' });
    await added.getByText('you won’t see it again', { exact: false }).waitFor();
    const secret = await added.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await added.getByRole('button', { name: 'Copy' }).click();
    await added.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(readClipboard)).toBe(secret);
    await expectAccessible(page);
    await screenshots(page, 'webhooks-secret-once', () => added.getByLabel('Signing secret').waitFor());

    await added.getByRole('button', { name: 'Done, I have copied it' }).click();
    await added.waitFor({ state: 'detached' });
    const row = page.getByTestId('webhook-row');
    await row.getByText(receiver.url).waitFor();
    await row.getByText('Active').waitFor();
    await row.getByText('task.*').waitFor();
    // The secret is not on the page any more.
    expect(await page.getByText(secret).count()).toBe(0);
  });

  test('a task’s delivery succeeds in the log; its detail, a redelivery and a test ping', async () => {
    await call(owner, 'POST', `/workspaces/${slug}/projects/HOOK/tasks`, { title: 'Ship the hooks' });
    const delivery = page.getByTestId('webhook-delivery').filter({ hasText: 'task.created' });
    await delivery.getByText('Succeeded').waitFor({ timeout: 20_000 });
    await delivery.getByText('HTTP 200').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'webhooks-list', () => delivery.getByText('Succeeded').waitFor());

    await delivery.click();
    const detail = page.getByRole('dialog', { name: 'Delivery' });
    await detail.getByText('"type": "task.created"').waitFor();
    await detail.getByText(/webhook-signature: v1,/).waitFor();
    await detail.getByText('HTTP 200').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'webhooks-delivery-detail', () => detail.getByText('HTTP 200').waitFor());

    const before = receiver.received.length;
    await detail.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    const ping = page.getByTestId('webhook-delivery').filter({ hasText: 'ping' });
    await ping.getByText('Succeeded').waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    await rotated.getByText(/next 24 hours/).waitFor();
    expect(await rotated.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await expectAccessible(page);
    await rotated.getByRole('button', { name: 'Done, I have copied it' }).click();
    await rotated.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Turn off ${receiver.url}` }).click();
    await page.getByTestId('webhook-row').getByText('Off', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Turn on ${receiver.url}` }).click();
    await page.getByTestId('webhook-row').getByText('Active', { exact: true }).waitFor();

    const types = receiver.received.map((got) => got.body.type);
    expect(types.filter((type) => type === 'task.created')).toHaveLength(2);
    expect(types).toContain('ping');
    // A redelivery goes with the same webhook-id as the first try.
    const ids = receiver.received
      .filter((got) => got.body.type === 'task.created')
      .map((got) => got.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
  });

  test('a member sees no Webhooks tab, and the page says who manages them', async () => {
    await member.page.goto(`${webUrl}/w/${slug}/settings/general`);
    const tabs = member.page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'General' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await member.page.goto(`${webUrl}/w/${slug}/settings/webhooks`);
    await member.page.getByText('Only owners and admins manage webhooks.').waitFor();
  });
});
