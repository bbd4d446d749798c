import { describe, expect, it } from 'vitest';
import { checkAvatar } from './avatar-file.ts';

function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('checkAvatar', () => {
  it('accepts a PNG, JPEG or WebP of up to 2 MB', () => {
    expect(checkAvatar(fileOf('me.webp', 'image/webp', 2 * 1024 * 1024))).toEqual({
      ok: true,
      body: { content_type: 'image/webp', size_bytes: 2 * 1024 * 1024 },
    });
    expect(checkAvatar(fileOf('me.jpg', 'image/jpeg', 10))).toMatchObject({ ok: true });
  });

  it('refuses a larger picture, another type, and an empty file, saying why', () => {
    expect(checkAvatar(fileOf('me.png', 'image/png', 3 * 1024 * 1024))).toEqual({
      ok: false,
      reason: '“me.png” is 3 MB: a picture can be at most 2 MB.',
    });
    expect(checkAvatar(fileOf('me.gif', 'image/gif', 10))).toEqual({
      ok: false,
      reason: '“me.gif” is not a PNG, JPEG or WebP picture.',
    });
    expect(checkAvatar(fileOf('me.png', 'image/png', 0))).toMatchObject({ ok: false });
  });
});
