import type { components } from '@api-spec/schema.d.ts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { FakeUploadRequest, lastUpload, sentUploads } from '../../../testing/fake-uploads.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { AttachmentsSection, type AttachmentsSectionProps } from './attachments-section.tsx';

type Attachment = components['schemas']['Attachment'];

const TASK = '5b1c6a2e-8f3d-4e7a-9c21-0d4e5f6a7b8c';
const ME = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';
const OTHER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const UPLOAD_URL = 'http://storage.test/storage/v1/object/upload/sign/attachments/w/t/a?token=signed';

function attachment(fields: Partial<Attachment>): Attachment {
  return {
    object: 'attachment',
    id: 'a0000000-0000-4000-8000-000000000001',
    task_id: TASK,
    file_name: 'spec.pdf',
    content_type: 'application/pdf',
    size_bytes: 1_310_720,
    status: 'ready',
    uploaded_by: ME,
    ready_at: '2026-11-28T09:00:00.000Z',
    version: 2,
    created_at: '2026-11-28T09:00:00.000Z',
    updated_at: '2026-11-28T09:00:00.000Z',
    ...fields,
  };
}

const screenshot = attachment({
  id: 'a0000000-0000-4000-8000-000000000002',
  file_name: 'checkout.png',
  content_type: 'image/png',
  size_bytes: 48_000,
  uploaded_by: OTHER,
});

interface Sent {
  method: string;
  path: string;
  body: string;
}

/**
 * Answers the attachment calls as the API does: `files` listed (a created one joins them once completed),
 * `complete` as `completion` says. Records what was sent.
 */
function serve(files: Attachment[], completion: (id: string) => Response | null = () => null): Sent[] {
  const sent: Sent[] = [];
  const listed = [...files];
  fetchMock.mockImplementation(async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    const path = new URL(request.url).pathname.replace('/functions/v1/api', '');
    const body = await request.text();
    sent.push({ method: request.method, path, body });
    if (request.method === 'GET' && path.endsWith('/download')) {
      return apiAnswer(200, {
        object: 'download_link',
        url: `http://storage.test/storage/v1/object/sign/attachments/${path.split('/')[3]}?token=t`,
        expires_at: '2026-11-28T09:05:00.000Z',
      });
    }
    if (request.method === 'GET') return apiAnswer(200, { object: 'list', data: listed, next_cursor: null });
    if (request.method === 'POST' && path.endsWith('/attachments')) {
      const declared = JSON.parse(body) as Pick<Attachment, 'file_name' | 'content_type' | 'size_bytes'>;
      const pending = attachment({
        ...declared,
        id: 'a0000000-0000-4000-8000-00000000000f',
        status: 'pending',
      });
      // As the API does: the caller's own pending uploads are listed too.
      listed.push(pending);
      return apiAnswer(201, {
        object: 'attachment_upload',
        attachment: pending,
        upload: { url: UPLOAD_URL, token: 'signed', expires_at: '2026-11-28T11:00:00.000Z' },
      });
    }
    if (request.method === 'POST' && path.endsWith('/complete')) {
      const id = path.split('/')[3] ?? '';
      const refusal = completion(id);
      const at = listed.findIndex((file) => file.id === id);
      if (refusal) {
        listed.splice(at, 1);
        return refusal;
      }
      listed[at] = attachment({ id, file_name: 'notes.txt', content_type: 'text/plain', size_bytes: 2048 });
      return apiAnswer(200, listed[at] ?? {});
    }
    if (request.method === 'DELETE') {
      const at = listed.findIndex((file) => path.endsWith(file.id));
      if (at >= 0) listed.splice(at, 1);
      return new Response(null, { status: 204 });
    }
    return apiAnswer(404, { code: 'not_found', detail: 'Not here.' });
  });
  return sent;
}

function renderSection(props: Partial<AttachmentsSectionProps> = {}) {
  return renderWithQueries(
    <AttachmentsSection
      taskId={TASK}
      canAttach
      canDeleteAny={false}
      meId={ME}
      nameOf={(id) => (id === ME ? 'Ada Lovelace' : 'Bob Kahn')}
      {...props}
    />,
  );
}

/** Picks files with the section's file input, as the "Attach files" button's picker does. */
function pick(...files: File[]) {
  fireEvent.change(screen.getByTestId('attachment-input'), { target: { files } });
}

function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const MB = 1024 * 1024;

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
  sentUploads.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.stubGlobal('fetch', fetchMock);
});

describe('AttachmentsSection', () => {
  it('lists the files: an image as its thumbnail, others as their kind and size, with who and download', async () => {
    serve([attachment({}), screenshot]);
    renderSection();
    const list = await screen.findByRole('list', { name: 'Attached files' });
    const [pdf, png] = within(list).getAllByTestId('attachment');
    expect(pdf?.textContent).toContain('spec.pdf');
    expect(pdf?.textContent).toContain('PDF');
    expect(pdf?.textContent).toContain('1.3 MB · Ada Lovelace');
    const view = await within(png as HTMLElement).findByRole('button', { name: 'View checkout.png' });
    expect(view.querySelector('img')?.getAttribute('src')).toMatch(/^http:\/\/storage\.test\/.*token=t$/);
    expect(screen.getByRole('heading', { name: 'Attachments · 2' })).toBeTruthy();
    // Mine may be deleted, Bob's not (no admin).
    expect(screen.getByRole('button', { name: 'Delete spec.pdf' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete checkout.png' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download spec.pdf' })).toBeTruthy();
  });

  it('refuses a file over 25 MB and a type the API does not take before sending anything', async () => {
    const sent = serve([]);
    renderSection();
    await screen.findByRole('button', { name: 'Attach files' });
    pick(fileOf('recording.png', 'image/png', 26 * MB), fileOf('logo.svg', 'image/svg+xml', 300));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      expect.stringContaining('“recording.png” is 26 MB: files can be at most 25 MB.'),
      expect.stringContaining('“logo.svg” is not a type you can attach'),
    ]);
    expect(sent.filter((call) => call.method === 'POST')).toEqual([]);
    expect(sentUploads).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss: recording.png' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('declares the file, shows its bytes going up, completes it, and lists it', async () => {
    const onChanged = vi.fn();
    const sent = serve([]);
    const { queryClient } = renderSection({ onChanged });
    await screen.findByRole('button', { name: 'Attach files' });
    pick(fileOf('notes.txt', 'text/plain', 2048));

    await waitFor(() => expect(sentUploads).toHaveLength(1));
    expect(JSON.parse(sent.find((call) => call.method === 'POST')?.body ?? '')).toEqual({
      file_name: 'notes.txt',
      content_type: 'text/plain',
      size_bytes: 2048,
    });
    const upload = lastUpload();
    expect([upload.method, upload.url, upload.headers.get('content-type')]).toEqual([
      'PUT',
      UPLOAD_URL,
      'text/plain',
    ]);

    act(() => upload.progress(1024));
    const bar = screen.getByRole('progressbar', { name: 'Uploading notes.txt' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByTestId('upload').textContent).toContain('1 KB of 2 KB');
    // The list read meanwhile names it as pending: it is shown once, as the upload.
    await act(() => queryClient.invalidateQueries());
    // TanStack Query tells its observers on the next tick.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByTestId('attachment')).toBeNull();

    act(() => upload.answer(200, { Key: 'attachments/w/t/a' }));
    const item = await screen.findByTestId('attachment');
    expect(item.textContent).toContain('notes.txt');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(sent.map((call) => `${call.method} ${call.path}`)).toContain(
      'POST /v1/attachments/a0000000-0000-4000-8000-00000000000f/complete',
    );
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('declares several files in the order they were picked, even when the first answer is slow', async () => {
    const sent = serve([]);
    const answer = fetchMock.getMockImplementation() ?? fetchMock;
    let slowed = false;
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'POST' && !slowed) {
        slowed = true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return answer(request);
    });
    renderSection();
    await screen.findByRole('button', { name: 'Attach files' });
    pick(
      fileOf('a.txt', 'text/plain', 10),
      fileOf('b.txt', 'text/plain', 20),
      fileOf('c.txt', 'text/plain', 30),
    );

    await waitFor(() => expect(sentUploads).toHaveLength(3));
    const declared = sent.filter((call) => call.method === 'POST' && call.path.endsWith('/attachments'));
    expect(declared.map((call) => (JSON.parse(call.body) as { file_name: string }).file_name)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
  });

  it("shows the API's reason when the file is refused at completion", async () => {
    serve([], () =>
      apiAnswer(415, {
        code: 'unsupported_media_type',
        detail: 'The file is not a text/plain file: its first bytes say otherwise.',
      }),
    );
    renderSection();
    await screen.findByRole('button', { name: 'Attach files' });
    pick(fileOf('notes.txt', 'text/plain', 2048));
    await waitFor(() => expect(sentUploads).toHaveLength(1));
    act(() => lastUpload().answer(200));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The file is not a text/plain file: its first bytes say otherwise.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("shows Storage's refusal of the bytes and discards the pending attachment", async () => {
    const sent = serve([]);
    renderSection();
    await screen.findByRole('button', { name: 'Attach files' });
    pick(fileOf('notes.txt', 'text/plain', 2048));
    await waitFor(() => expect(sentUploads).toHaveLength(1));
    act(() => lastUpload().answer(400, { statusCode: '403', error: 'Unauthorized', message: 'jwt expired' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Storage refused the file: jwt expired');
    await waitFor(() =>
      expect(sent.map((call) => `${call.method} ${call.path}`)).toContain(
        'DELETE /v1/attachments/a0000000-0000-4000-8000-00000000000f',
      ),
    );
  });

  it('cancels an upload under way and discards its attachment', async () => {
    const sent = serve([]);
    renderSection();
    await screen.findByRole('button', { name: 'Attach files' });
    pick(fileOf('notes.txt', 'text/plain', 2048));
    await waitFor(() => expect(sentUploads).toHaveLength(1));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel: notes.txt' }));
    await waitFor(() => expect(screen.queryByTestId('upload')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(sent.some((call) => call.method === 'DELETE')).toBe(true));
  });

  it('offers a viewer no upload and no delete, but the download', async () => {
    serve([attachment({})]);
    renderSection({ canAttach: false });
    await screen.findByRole('button', { name: 'Download spec.pdf' });
    expect(screen.queryByRole('button', { name: 'Attach files' })).toBeNull();
    expect(screen.queryByTestId('attachment-drop-zone')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });

  it('tells a viewer when there are no files', async () => {
    serve([]);
    renderSection({ canAttach: false });
    await screen.findByText('No files attached.');
  });

  it("asks before deleting, then deletes; an admin may delete anyone's", async () => {
    const sent = serve([screenshot]);
    const { user } = renderSection({ canDeleteAny: true });
    await user.click(await screen.findByRole('button', { name: 'Delete checkout.png' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete checkout.png?' });
    expect(sent.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete file' }));
    await waitFor(() =>
      expect(sent.map((call) => `${call.method} ${call.path}`)).toContain(
        `DELETE /v1/attachments/${screenshot.id}`,
      ),
    );
  });

  it("shows the list's error with its detail and tries again", async () => {
    let failing = true;
    serve([attachment({})]);
    const answer = fetchMock.getMockImplementation() ?? fetchMock;
    fetchMock.mockImplementation(async (input, init) =>
      failing
        ? apiAnswer(503, { code: 'unavailable', detail: 'Storage is not answering.' })
        : answer(input, init),
    );
    const { user } = renderSection();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Storage is not answering.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: 'Download spec.pdf' });
  });
});
