import { describe, expect, it } from 'vitest';
import { checkAttachment } from './attachment-files.ts';

const MB = 1024 * 1024;

/** A File of `size` bytes without allocating them all. */
function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('checkAttachment', () => {
  it('accepts a PNG or a PDF up to 25 MB, declared as what it is', () => {
    expect(checkAttachment(fileOf('shot.png', 'image/png', 25 * MB))).toEqual({
      ok: true,
      body: { file_name: 'shot.png', content_type: 'image/png', size_bytes: 25 * MB },
    });
    expect(checkAttachment(fileOf('spec.pdf', 'application/pdf', 1000))).toMatchObject({ ok: true });
  });

  it('refuses a file over 25 MB, saying how large it is', () => {
    expect(checkAttachment(fileOf('video.png', 'image/png', 26 * MB))).toEqual({
      ok: false,
      reason: '“video.png” is 26 MB: files can be at most 25 MB.',
    });
  });

  it('refuses a type the API does not take, and an empty file', () => {
    expect(checkAttachment(fileOf('logo.svg', 'image/svg+xml', 100))).toEqual({
      ok: false,
      reason:
        '“logo.svg” is not a type you can attach: images (PNG, JPEG, GIF, WebP), PDF, text, Markdown, CSV, JSON or ZIP.',
    });
    expect(checkAttachment(fileOf('setup.exe', 'application/x-msdownload', 100))).toMatchObject({
      ok: false,
    });
    expect(checkAttachment(fileOf('empty.txt', 'text/plain', 0))).toEqual({
      ok: false,
      reason: '“empty.txt” is empty.',
    });
  });

  it('declares a log or Markdown file the browser gave no type', () => {
    expect(checkAttachment(fileOf('server.log', '', 10))).toMatchObject({
      ok: true,
      body: { content_type: 'text/plain' },
    });
  });

  it('refuses a name the API would refuse', () => {
    expect(checkAttachment(fileOf(`${'a'.repeat(252)}.txt`, 'text/plain', 10))).toEqual({
      ok: false,
      reason: 'The file name must be at most 255 characters.',
    });
  });
});
