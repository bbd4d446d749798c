/**
 * The second security review, item 1: stored XSS on Storage's origin, reproduced as it was reported, through
 * the full stack and in Chromium. A file declared `image/gif` whose bytes start `GIF89a` and go on as an HTML
 * page, PUT to its signed upload URL with `Content-Type: image/gif/,text/html` (Storage compares only the
 * first two `/`-separated parts with the bucket's types), passed `complete` (size and first bytes) and was
 * served with that type, which Chromium renders as HTML on the origin of `/auth/v1` and `/functions/v1`. The
 * same went for avatars (`image/png/,text/html`), whose signed URL every co-member receives.
 *
 * Now Storage refuses the type, `complete` finds nothing uploaded, and no link is answered; the same bytes
 * under the exact declared type are served as the image they claim to be, and the page keeps no title of
 * theirs. The victim's browser is a fresh profile: a link is all an attacker would send.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { callApiAs, sendApiAs, signUpPerson, type Person } from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'served safely password 1';
/** What the injected page would set as the title, itself and from its script. */
const PAYLOAD_TITLES = /Stored XSS|script ran/;
const PAGE =
  '<html><head><title>Stored XSS</title></head><body><script>document.title = "script ran"</script></body></html>';
const GIF_PAGE = Buffer.concat([Buffer.from('GIF89a'), Buffer.from(PAGE)]);
const PNG_PAGE = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(PAGE),
]);

interface Upload {
  attachment?: { id: string };
  upload: { url: string };
}

let browser: Browser;
let owner: Person;
let taskId = '';

/** Calls the API as `person` and answers the raw response, error answers included. */
const apiAs = (person: Person, method: string, path: string, body?: unknown): Promise<Response> =>
  sendApiAs(apiUrl, person.page, method, path, body);

/** PUTs the bytes to a signed upload URL as they are, with `type` as Content-Type, as anyone could. */
const putAs = (url: string, bytes: Buffer, type: string): Promise<Response> =>
  fetch(url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });

/** The title of the page Chromium shows at `url`, opened in a fresh profile as a victim clicking a link. */
async function titleAt(url: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.title();
  } finally {
    await context.close();
  }
}

/** Declares `bytes` as an attachment of type `declared`, PUTs them as `sent`, completes; the answers. */
async function attachAs(declared: string, sent: string, bytes: Buffer) {
  const created = await apiAs(owner, 'POST', `/tasks/${taskId}/attachments`, {
    file_name: 'spinner.gif',
    content_type: declared,
    size_bytes: bytes.length,
  });
  expect(created.status).toBe(201);
  const { attachment, upload } = (await created.json()) as Upload;
  const id = attachment?.id ?? '';
  const put = await putAs(upload.url, bytes, sent);
  const completed = await apiAs(owner, 'POST', `/attachments/${id}/complete`);
  const link = await apiAs(owner, 'GET', `/attachments/${id}/download`);
  const url = link.ok ? ((await link.json()) as { url: string }).url : null;
  return { put, completed, link, url };
}

/** Starts an avatar upload declared `declared`, PUTs `bytes` as `sent`, completes; the answers. */
async function avatarAs(declared: string, sent: string, bytes: Buffer) {
  const started = await apiAs(owner, 'POST', '/me/avatar', {
    content_type: declared,
    size_bytes: bytes.length,
  });
  expect(started.status).toBe(201);
  const { upload } = (await started.json()) as Upload;
  const put = await putAs(upload.url, bytes, sent);
  const completed = await apiAs(owner, 'POST', '/me/avatar/complete');
  const me = (await (await apiAs(owner, 'GET', '/me')).json()) as { avatar_url: string | null };
  return { put, completed, url: me.avatar_url };
}

async function expectInvalidMimeType(put: Response, type: string): Promise<void> {
  expect({ status: put.status, body: await put.json() }).toEqual({
    status: 400,
    body: {
      statusCode: '415',
      code: 'InvalidMimeType',
      error: 'invalid_mime_type',
      message: `mime type ${type} is not supported`,
    },
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  const slug = `safe-${randomUUID().slice(0, 8)}`;
  const call = <T>(method: string, path: string, body?: unknown) =>
    callApiAs<T>(apiUrl, owner.page, method, path, body);
  await call('POST', '/workspaces', { name: 'Served safely', slug });
  await call('POST', `/workspaces/${slug}/projects`, { key: 'XSS', name: 'Reproduction' });
  taskId = (
    await call<{ id: string }>('POST', `/workspaces/${slug}/projects/XSS/tasks`, { title: 'Spinner' })
  ).id;
}, 120_000);

afterAll(async () => {
  expect(owner?.errors ?? []).toEqual([]);
  await browser?.close();
});

describe('files on the Storage origin', () => {
  test('an attachment uploaded as image/gif/,text/html never renders as a page', async () => {
    const sneaked = await attachAs('image/gif', 'image/gif/,text/html', GIF_PAGE);
    // The report: Chromium rendered the "GIF" as a page on Storage's origin.
    if (sneaked.url !== null) expect(await titleAt(sneaked.url)).not.toMatch(PAYLOAD_TITLES);
    await expectInvalidMimeType(sneaked.put, 'image/gif/,text/html');
    expect(sneaked.completed.status).toBe(409);
    expect(((await sneaked.completed.json()) as { code: string }).code).toBe('upload_incomplete');
    expect(sneaked.link.status).toBe(409);

    // The same bytes under the declared type pass (they start as a GIF does) and are served as a GIF.
    const exact = await attachAs('image/gif', 'image/gif', GIF_PAGE);
    expect(exact.put.status).toBe(200);
    expect(exact.completed.status).toBe(200);
    expect(exact.url).not.toBeNull();
    const served = await fetch(exact.url ?? '');
    expect(served.headers.get('content-type')).toBe('image/gif');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await titleAt(exact.url ?? '')).not.toMatch(PAYLOAD_TITLES);
  });

  test('an avatar uploaded as image/png/,text/html never renders as a page', async () => {
    const sneaked = await avatarAs('image/png', 'image/png/,text/html', PNG_PAGE);
    // The report: every co-member's browser got this signed URL with the profile.
    if (sneaked.url !== null) expect(await titleAt(sneaked.url)).not.toMatch(PAYLOAD_TITLES);
    await expectInvalidMimeType(sneaked.put, 'image/png/,text/html');
    expect(sneaked.completed.status).toBe(409);
    expect(sneaked.url).toBeNull();

    const exact = await avatarAs('image/png', 'image/png', PNG_PAGE);
    expect(exact.put.status).toBe(200);
    expect(exact.completed.status).toBe(200);
    expect(exact.url).not.toBeNull();
    expect((await fetch(exact.url ?? '')).headers.get('content-type')).toBe('image/png');
    expect(await titleAt(exact.url ?? '')).not.toMatch(PAYLOAD_TITLES);
  });
});
