/**
 * The files work, "Web" and "E2E": a member attaches a PNG and a PDF to a task and sees them go up and the
 * thumbnail; the PDF downloads byte for byte; a 26 MiB file is refused in the browser and by the API; a
 * renamed executable declared as PNG is refused at `complete`; a viewer downloads but cannot upload; an
 * outsider gets no link to another workspace's file; an avatar shows on the account page and on a card.
 * Screenshots of the task panel with attachments, the lightbox and the account's picture.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { emulateNetwork } from '../support/network-conditions.ts';
import {
  boardCard,
  callApiAs,
  contrastInside,
  expectNoSeriousAxeViolations,
  saveScreenshots,
  SCREENSHOTS,
  sendApiAs,
  signUpPerson,
  type Person,
} from '../support/web-e2e.ts';

const { webUrl, apiUrl } = inject('stack');
const PASSWORD = 'attachments password 1';
const MIB = 1024 * 1024;

interface Task {
  id: string;
  key: string;
}
interface Attachment {
  id: string;
  file_name: string;
  status: string;
}
interface AttachmentUpload {
  attachment: Attachment;
  upload: { url: string };
}

let browser: Browser;
let owner: Person;
let viewer: Person;
let outsider: Person;
let task: Task;
let pdfId = '';
const slug = `files-${randomUUID().slice(0, 8)}`;
const taskPath = () => `/w/${slug}/p/WEB/t/1`;

/** Waits until the image named `name` inside `scope` has loaded its pixels (a broken one never does). */
async function imageLoadedIn(scope: Locator, name: string): Promise<void> {
  await expect
    .poll(() =>
      scope
        .getByRole('img', { name })
        .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
    )
    .toBeGreaterThan(0);
}

/** A PDF of about `size` bytes: a real header and trailer around filler, as a reader would open it. */
function pdfOf(size: number): Buffer {
  const head = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n';
  const tail = '\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  const filler = Buffer.alloc(size - head.length - tail.length, '% filler line of the attachments test\n');
  return Buffer.concat([Buffer.from(head), filler, Buffer.from(tail)]);
}

/** A one-page PDF that says `text` in Helvetica, with a cross-reference table a reader can trust. */
function pdfSaying(text: string): Buffer {
  const stream = `BT /F1 28 Tf 40 110 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 240] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Calls the API as `person` and answers the raw response, error answers included. */
const apiAs = (person: Person, method: string, path: string, body?: unknown): Promise<Response> =>
  sendApiAs(apiUrl, person.page, method, path, body);

/** Slows the page's uploads down to `bytesPerSecond`, so their progress can be seen (Chromium's throttling). */
const throttleUploads = (page: Page, bytesPerSecond: number) =>
  emulateNetwork(page, { latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });

const attachmentsOf = (within: Page | Locator) => within.getByRole('region', { name: /^Attachments/ });

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchBrowser();
  const signUp = () => signUpPerson(browser, { webUrl, apiUrl }, PASSWORD);
  owner = await signUp();
  viewer = await signUp();
  outsider = await signUp();
  const call = <T>(person: Person, method: string, path: string, body?: unknown) =>
    callApiAs<T>(apiUrl, person.page, method, path, body);
  await call(owner, 'POST', '/workspaces', { name: 'Files', slug });
  await call(owner, 'POST', `/workspaces/${slug}/projects`, { key: 'WEB', name: 'Website' });
  task = await call<Task>(owner, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
    title: 'Fix the checkout page',
  });
  const invitation = await call<{ accept_url: string }>(owner, 'POST', `/workspaces/${slug}/invitations`, {
    email: viewer.email,
    role: 'viewer',
  });
  await call(viewer, 'POST', `/invitations/${invitation.accept_url.split('/').at(-1) ?? ''}/accept`);
  await call(outsider, 'POST', '/workspaces', { name: 'Elsewhere', slug: `else-${slug}` });
}, 120_000);

afterAll(async () => {
  for (const person of [owner, viewer, outsider]) expect(person?.errors ?? []).toEqual([]);
  await browser?.close();
});

describe('attachments', () => {
  test('a PNG and a PDF go up with progress; the PNG shows as a thumbnail and in the lightbox; the PDF downloads as it was', async () => {
    const { page } = owner;
    const png = await page.screenshot();
    const pdf = pdfOf(3 * MIB);
    await page.goto(`${webUrl}${taskPath()}`);
    const section = attachmentsOf(page);
    await section.getByRole('button', { name: 'Attach files' }).waitFor();

    const unthrottle = await throttleUploads(page, 1 * MIB);
    await section.getByTestId('attachment-input').setInputFiles([
      { name: 'checkout.png', mimeType: 'image/png', buffer: png },
      { name: 'Checkout spec.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    // The PDF's bar moves while its bytes go up.
    const bar = section.getByRole('progressbar', { name: 'Uploading Checkout spec.pdf' });
    await expect
      .poll(async () => Number((await bar.getAttribute('aria-valuenow', { timeout: 10_000 })) ?? 0), {
        timeout: 20_000,
        interval: 100,
      })
      .toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await unthrottle();

    const items = section.getByTestId('attachment');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(2);
    expect(await section.getByRole('progressbar').count()).toBe(0);
    const pngItem = items.filter({ hasText: 'checkout.png' });
    const thumbnail = pngItem.getByRole('button', { name: 'View checkout.png' }).locator('img');
    await expect
      .poll(() => thumbnail.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const pdfItem = items.filter({ hasText: 'Checkout spec.pdf' });
    await pdfItem.getByText('3 MB').waitFor();
    expect(await pdfItem.locator('img').count()).toBe(0);
    await page.getByText('attached checkout.png').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      pdfItem.getByRole('button', { name: 'Download Checkout spec.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Checkout spec.pdf');
    expect((await readFile(await download.path())).equals(pdf)).toBe(true);

    const list = await callApiAs<{ data: Attachment[] }>(
      apiUrl,
      page,
      'GET',
      `/tasks/${task.id}/attachments`,
    );
    expect(list.data.map(({ file_name, status }) => [file_name, status])).toEqual([
      ['checkout.png', 'ready'],
      ['Checkout spec.pdf', 'ready'],
    ]);
    pdfId = list.data.find((attachment) => attachment.file_name.endsWith('.pdf'))?.id ?? '';

    await pngItem.getByRole('button', { name: 'View checkout.png' }).click();
    const lightbox = page.getByRole('dialog', { name: 'checkout.png' });
    await imageLoadedIn(lightbox, 'checkout.png');
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'attachments-lightbox');
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
  });

  test("a file's name opens its preview: a PDF drawn in the page by pdf.js, an image large, Download beside", async () => {
    const { page, context } = owner;
    const contract = pdfSaying('Venue contract, signed');
    const section = attachmentsOf(page);
    await section
      .getByTestId('attachment-input')
      .setInputFiles([{ name: 'Venue contract.pdf', mimeType: 'application/pdf', buffer: contract }]);
    const item = section.getByTestId('attachment').filter({ hasText: 'Venue contract.pdf' });
    await item.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 30_000 });
    const tabs = context.pages().length;
    const address = page.url();

    await item.getByRole('button', { name: 'Open Venue contract.pdf' }).click();
    const preview = page.getByRole('dialog', { name: 'Venue contract.pdf' });
    const firstPage = preview.getByRole('img', { name: 'Page 1 of 1' });
    await firstPage.and(page.locator('[data-drawn]')).waitFor({ timeout: 30_000 });
    // The text was drawn: dark glyphs on the white page, not a blank canvas.
    expect(await contrastInside(firstPage, 0.9)).toBeGreaterThan(4);
    // Drawn here, in this page: no tab and no navigation to the Storage origin.
    expect(context.pages()).toHaveLength(tabs);
    expect(page.url()).toBe(address);
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'attachments-pdf-preview');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: 'Download Venue contract.pdf' }).click(),
    ]);
    expect((await readFile(await download.path())).equals(contract)).toBe(true);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    await section.getByRole('button', { name: 'Open checkout.png' }).click();
    const lightbox = page.getByRole('dialog', { name: 'checkout.png' });
    await imageLoadedIn(lightbox, 'checkout.png');
    await lightbox.getByRole('button', { name: 'Download checkout.png' }).waitFor();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
  });

  test('in the panel over the board: a 26 MiB file is refused before it leaves, and by the API', async () => {
    const { page } = owner;
    await page.goto(`${webUrl}/w/${slug}/p/WEB`);
    await boardCard(page, 'WEB-1').click();
    const panel = page.getByRole('dialog', { name: 'WEB-1' });
    const section = attachmentsOf(panel);
    await section.getByTestId('attachment').nth(1).waitFor();

    const created: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/attachments')) created.push(request.url());
    });
    await section.getByTestId('attachment-input').setInputFiles({
      name: 'screen-recording.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(26 * MIB),
    });
    await section
      .getByRole('alert')
      .getByText('“screen-recording.png” is 26 MB: files can be at most 25 MB.')
      .waitFor();
    await section.getByTestId('attachment-input').setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await section.getByRole('alert').getByText('“logo.svg” is not a type you can attach').waitFor();
    expect(created).toEqual([]);

    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'attachments-panel', () =>
      page
        .getByRole('dialog', { name: 'WEB-1' })
        .getByRole('button', { name: 'View checkout.png' })
        .waitFor(),
    );

    const refused = await apiAs(owner, 'POST', `/tasks/${task.id}/attachments`, {
      file_name: 'screen-recording.png',
      content_type: 'image/png',
      size_bytes: 26 * MIB,
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { code: string }).code).toBe('payload_too_large');
  });

  test('a renamed executable declared as a PNG is refused at complete, and removed', async () => {
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(4000, 7)]);
    const created = await apiAs(owner, 'POST', `/tasks/${task.id}/attachments`, {
      file_name: 'invoice.png',
      content_type: 'image/png',
      size_bytes: exe.length,
    });
    expect(created.status).toBe(201);
    const { attachment, upload } = (await created.json()) as AttachmentUpload;
    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: exe,
    });
    expect(put.status).toBe(200);

    const completed = await apiAs(owner, 'POST', `/attachments/${attachment.id}/complete`);
    expect(completed.status).toBe(415);
    expect(((await completed.json()) as { code: string }).code).toBe('unsupported_media_type');
    expect((await apiAs(owner, 'GET', `/attachments/${attachment.id}`)).status).toBe(404);
  });

  test('a viewer sees and downloads the files but is offered no upload, and the API refuses theirs', async () => {
    const { page } = viewer;
    await page.goto(`${webUrl}${taskPath()}`);
    const section = attachmentsOf(page);
    const pdfItem = section.getByTestId('attachment').filter({ hasText: 'Checkout spec.pdf' });
    await pdfItem.waitFor();
    expect(await section.getByRole('button', { name: 'Attach files' }).count()).toBe(0);
    expect(await section.getByTestId('attachment-drop-zone').count()).toBe(0);
    expect(await section.getByRole('button', { name: /^Delete/ }).count()).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      pdfItem.getByRole('button', { name: 'Download Checkout spec.pdf' }).click(),
    ]);
    expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe('%PDF-');

    const refused = await apiAs(viewer, 'POST', `/tasks/${task.id}/attachments`, {
      file_name: 'notes.txt',
      content_type: 'text/plain',
      size_bytes: 10,
    });
    expect(refused.status).toBe(403);
  });

  test("an outsider gets no link to another workspace's file, nor its list", async () => {
    expect(pdfId).not.toBe('');
    const download = await apiAs(outsider, 'GET', `/attachments/${pdfId}/download`);
    expect(download.status).toBe(404);
    expect((await apiAs(outsider, 'GET', `/tasks/${task.id}/attachments`)).status).toBe(404);
  });

  test('a picture chosen on the account page shows there, in the header and on the card of a task assigned to them', async () => {
    const { page } = owner;
    await page.goto(`${webUrl}/account`);
    const picture = page.getByTestId('avatar-input');
    await page.getByRole('button', { name: 'Upload a picture' }).waitFor();

    await picture.setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByRole('alert').getByText('“me.gif” is not a PNG, JPEG or WebP picture.').waitFor();

    // A wide picture, which the circle shows cropped to its middle, not squeezed.
    const face = await page.getByRole('button', { name: 'Set up an authenticator app' }).screenshot();
    await picture.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: face });
    await page.getByText('This is how your teammates will see it.').waitFor();
    await page.getByRole('button', { name: 'Save picture' }).click();
    await page.getByText('Your picture was saved.').waitFor();

    const me = await callApiAs<{ id: string; avatar_url: string | null }>(apiUrl, page, 'GET', '/me');
    expect(me.avatar_url).toMatch(/\/storage\/v1\/object\/sign\/avatars\//);
    const header = page.getByRole('button', { name: 'Account menu' }).locator('img');
    await expect
      .poll(() => header.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Remove' }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, 'account-avatar');

    await callApiAs(apiUrl, page, 'PATCH', `/tasks/${task.id}`, { assignee_id: me.id });
    await page.goto(`${webUrl}/w/${slug}/p/WEB`);
    const cardPicture = boardCard(page, 'WEB-1').locator('img');
    await expect
      .poll(
        () => cardPicture.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThan(0);
  });
});
