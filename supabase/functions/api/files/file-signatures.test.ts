import { describe, expect, it } from 'vitest';
import { looksLike, SIGNATURE_SAMPLE_BYTES } from './file-signatures.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)));

const PNG = bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR');
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF');
const GIF = bytes('GIF89a', [1, 0, 1, 0]);
const WEBP = bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ');
const PDF = bytes('%PDF-1.7\n%');
const ZIP = bytes('PK', [3, 4, 20, 0]);
const EXE = bytes('MZ', [0x90, 0, 3, 0]);

describe('looksLike', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/gif', GIF],
    ['image/webp', WEBP],
    ['application/pdf', PDF],
    ['application/zip', ZIP],
    ['text/plain', bytes('hello, wörld\n')],
    ['text/markdown', bytes('# Title\n\n*émphasis*')],
    ['text/csv', bytes('a,b\n1,2\n')],
    ['application/json', bytes('{"a": [1, 2]}')],
  ] as const)('accepts the start of a %s', (type, start) => {
    expect(looksLike(type, start, true)).toBe(true);
  });

  it.each([
    ['image/png', EXE],
    ['image/png', JPEG],
    ['image/jpeg', PNG],
    ['image/gif', bytes('GIF90a')],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WAVE')],
    ['application/pdf', bytes('<html>')],
    ['application/zip', EXE],
    ['text/plain', bytes('text', [0], 'more')],
    ['text/plain', bytes([0xc3, 0x28])],
    ['application/json', EXE],
    ['image/png', new Uint8Array()],
  ] as const)('refuses as %s what is something else', (type, start) => {
    expect(looksLike(type, start, true)).toBe(false);
  });

  it('accepts a text sample cut inside a character when the file goes on, not when it ends there', () => {
    const cut = bytes('caf', [0xc3]);
    expect(looksLike('text/plain', cut, false)).toBe(true);
    expect(looksLike('text/plain', cut, true)).toBe(false);
  });

  it('reads a sample of a few KiB', () => {
    expect(SIGNATURE_SAMPLE_BYTES).toBeGreaterThanOrEqual(1024);
  });
});
