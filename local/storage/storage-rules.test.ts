import { describe, expect, test } from 'vitest';
import { requestedRange } from './byte-range.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { parseFileSize } from './file-size.ts';
import { assertMimeTypeAllowed, maxObjectSize } from './limits.ts';

describe('storage rules', () => {
  test('file sizes: decimal units as Storage, binary units as the CLI, plain bytes', () => {
    expect(parseFileSize('1MB')).toBe(1_000_000);
    expect(parseFileSize('1.5mb')).toBe(1_500_000);
    expect(parseFileSize('50MiB')).toBe(52_428_800);
    expect(parseFileSize('64 KiB')).toBe(65_536);
    expect(parseFileSize('1024')).toBe(1024);
    expect(parseFileSize('lots')).toBeNull();
    expect(parseFileSize('-1MB')).toBeNull();
  });

  test('the effective limit is the smaller of the bucket limit and the global one', () => {
    const bucket = (limit: number | null) => ({ file_size_limit: limit, allowed_mime_types: null });
    expect(maxObjectSize(bucket(null), 100)).toBe(100);
    expect(maxObjectSize(bucket(50), 100)).toBe(50);
    expect(maxObjectSize(bucket(500), 100)).toBe(100);
  });

  test('MIME types match type and subtype or a wildcard, parameters not stripped', () => {
    const bucket = { file_size_limit: null, allowed_mime_types: ['text/plain', 'image/*'] };
    expect(() => assertMimeTypeAllowed(bucket, 'text/plain')).not.toThrow();
    expect(() => assertMimeTypeAllowed(bucket, 'image/svg+xml')).not.toThrow();
    expect(() => assertMimeTypeAllowed(bucket, 'text/plain;charset=UTF-8')).toThrow(
      'mime type text/plain;charset=UTF-8 is not supported',
    );
    expect(() => assertMimeTypeAllowed(bucket, 'text/html')).toThrow();
    expect(() => assertMimeTypeAllowed({ ...bucket, allowed_mime_types: null }, 'any/thing')).not.toThrow();
  });

  test('with an allow-list, only a plain type/subtype is compared: anything around or after it is refused', () => {
    const bucket = { file_size_limit: null, allowed_mime_types: ['image/gif', 'image/png', 'text/*'] };
    // Storage splits on "/" and compares two parts, so these would pass its check and be served as they are.
    for (const type of [
      'image/gif/,text/html',
      'image/png/,text/html',
      'image/gif/',
      'image/gif,text/html',
      'image/gif, text/html',
      'image/gif;charset=utf-8',
      'image/gif ; x=y',
      ' image/gif',
      'image/gif ',
      'image/gif\t',
      'image /gif',
      'image/',
      '/gif',
      'image',
      '',
    ]) {
      expect(() => assertMimeTypeAllowed(bucket, type), JSON.stringify(type)).toThrow(
        `mime type ${type} is not supported`,
      );
    }
    expect(() => assertMimeTypeAllowed(bucket, 'image/gif')).not.toThrow();
    expect(() => assertMimeTypeAllowed(bucket, 'text/x-log')).not.toThrow();
    // Token characters (RFC 9110) are a type's own: a wildcard still admits them.
    expect(() => assertMimeTypeAllowed(bucket, "text/vnd.a+b-c_d!#$&'^`|~")).not.toThrow();
  });

  test('byte ranges: first-last, open-ended, suffix, clamped, unsatisfiable, ignored forms', () => {
    expect(requestedRange('bytes=0-3', 10)).toEqual({ start: 0, end: 3 });
    expect(requestedRange('bytes=7-', 10)).toEqual({ start: 7, end: 9 });
    expect(requestedRange('bytes=-4', 10)).toEqual({ start: 6, end: 9 });
    expect(requestedRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(requestedRange(undefined, 10)).toBeNull();
    expect(requestedRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(() => requestedRange('bytes=10-', 10)).toThrow('not satisfiable');
    expect(() => requestedRange('bytes=5-2', 10)).toThrow('not satisfiable');
  });

  test("Content-Disposition names the file in RFC 5987's encoding", () => {
    expect(attachmentDisposition('report.pdf')).toBe("attachment; filename*=UTF-8''report.pdf");
    expect(attachmentDisposition("l'été (1)*.txt")).toBe(
      "attachment; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29%2A.txt",
    );
  });
});
