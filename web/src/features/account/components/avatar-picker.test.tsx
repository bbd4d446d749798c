import type { components } from '@api-spec/schema.d.ts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { FakeUploadRequest, lastUpload, sentUploads } from '../../../testing/fake-uploads.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { AvatarPicker } from './avatar-picker.tsx';

type Me = components['schemas']['Me'];

const me = {
  object: 'user',
  id: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10',
  email: 'ada@example.com',
  display_name: 'Ada Lovelace',
  avatar_url: null,
} as unknown as Me;
const PICTURE_URL = 'http://storage.test/storage/v1/object/sign/avatars/me?token=t';

/** Answers the avatar calls as the API does and records them. */
function serve(): string[] {
  const sent: string[] = [];
  fetchMock.mockImplementation(async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    const path = new URL(request.url).pathname.replace('/functions/v1/api', '');
    sent.push(`${request.method} ${path} ${await request.text()}`.trim());
    if (path === '/v1/me/avatar' && request.method === 'POST') {
      return apiAnswer(201, {
        object: 'avatar_upload',
        upload: { url: 'http://storage.test/upload?token=u', token: 'u', expires_at: '2026-11-28T11:00:00Z' },
      });
    }
    if (path === '/v1/me/avatar/complete') return apiAnswer(200, { ...me, avatar_url: PICTURE_URL });
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    return apiAnswer(200, me);
  });
  return sent;
}

function pick(file: File) {
  fireEvent.change(screen.getByTestId('avatar-input'), { target: { files: [file] } });
}

function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

// The preview's object URL (happy-dom makes none for a File built in a test).
let objectUrls: { mockRestore: () => void }[] = [];

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
  objectUrls = [
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview'),
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined),
  ];
  sentUploads.length = 0;
});
afterEach(() => {
  for (const spy of objectUrls) spy.mockRestore();
  vi.unstubAllGlobals();
  vi.stubGlobal('fetch', fetchMock);
});

describe('AvatarPicker', () => {
  it('refuses a GIF and a picture over 2 MB before sending anything', () => {
    const sent = serve();
    renderWithQueries(<AvatarPicker me={me} />);
    pick(fileOf('me.gif', 'image/gif', 100));
    expect(screen.getByRole('alert').textContent).toBe('“me.gif” is not a PNG, JPEG or WebP picture.');
    pick(fileOf('me.png', 'image/png', 3 * 1024 * 1024));
    expect(screen.getByRole('alert').textContent).toBe('“me.png” is 3 MB: a picture can be at most 2 MB.');
    expect(sent).toEqual([]);
  });

  it('previews the picture, uploads it with progress and completes it', async () => {
    const sent = serve();
    const { user } = renderWithQueries(<AvatarPicker me={me} />);
    pick(fileOf('me.png', 'image/png', 4000));
    expect(document.querySelector('img')?.getAttribute('src')).toBe('blob:preview');
    await user.click(screen.getByRole('button', { name: 'Save picture' }));

    await waitFor(() => expect(sentUploads).toHaveLength(1));
    expect(sent[0]).toBe('POST /v1/me/avatar {"content_type":"image/png","size_bytes":4000}');
    expect(lastUpload().headers.get('content-type')).toBe('image/png');
    act(() => lastUpload().progress(1000));
    expect(
      screen.getByRole('progressbar', { name: 'Uploading your picture' }).getAttribute('aria-valuenow'),
    ).toBe('25');
    act(() => lastUpload().answer(200));
    await screen.findByText('Your picture was saved.');
    expect(sent.at(-1)).toBe('POST /v1/me/avatar/complete');
  });

  it("shows the API's refusal of the uploaded picture", async () => {
    serve();
    const answer = fetchMock.getMockImplementation() ?? fetchMock;
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(input);
      if (request.url.endsWith('/complete')) {
        return apiAnswer(415, { code: 'unsupported_media_type', detail: 'The picture is not a PNG.' });
      }
      return answer(input, init);
    });
    const { user } = renderWithQueries(<AvatarPicker me={me} />);
    pick(fileOf('me.png', 'image/png', 4000));
    await user.click(screen.getByRole('button', { name: 'Save picture' }));
    await waitFor(() => expect(sentUploads).toHaveLength(1));
    act(() => lastUpload().answer(200));
    expect((await screen.findByRole('alert')).textContent).toBe('The picture is not a PNG.');
  });

  it('asks before removing the picture', async () => {
    const sent = serve();
    const { user } = renderWithQueries(<AvatarPicker me={{ ...me, avatar_url: PICTURE_URL }} />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove your picture?' });
    expect(sent).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Remove picture' }));
    await screen.findByText('Your picture was removed.');
    expect(sent[0]).toBe('DELETE /v1/me/avatar');
  });
});
