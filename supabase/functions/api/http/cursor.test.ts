import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import { CURSOR_MAX_LENGTH, decodeCursor, encodeCursor } from './cursor.ts';

const KEY = ['2026-11-22T12:00:00.123456+00:00', '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e'] as const;
const toBase64url = (text: string) => Buffer.from(text).toString('base64url');

describe('page cursors', () => {
  it('round-trip a sort key, microseconds and all', () => {
    const cursor = encodeCursor(KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, CreatedAtIdKey)).toEqual({ ok: true, key: [...KEY] });
  });

  it('carry numbers and text beyond ASCII', () => {
    const key = ['Café ☕ 東京', 42.5, '00000000-0000-4000-8000-000000000000'];
    const schema = z.tuple([z.string(), z.number(), z.uuid()]);
    expect(decodeCursor(encodeCursor(key), schema)).toEqual({ ok: true, key });
  });

  it('are versioned: the format version comes first', () => {
    expect(Buffer.from(encodeCursor(KEY), 'base64url').toString()).toBe(JSON.stringify([1, ...KEY]));
  });

  it.each([
    ['not base64url', 'abc+/def', 'it is not base64url'],
    ['padded base64', `${toBase64url('[1]')}==`, 'it is not base64url'],
    ['of an impossible length', 'abcde', 'it does not hold a position'],
    ['not JSON', toBase64url('{not json'), 'it does not hold a position'],
    ['not UTF-8', Buffer.from([0xff, 0xfe, 0x5b]).toString('base64url'), 'it does not hold a position'],
    ['an object', toBase64url('{"v":1}'), 'it does not hold a position'],
    ['an empty array', toBase64url('[]'), 'it does not hold a position'],
    ['a key of the wrong shape', toBase64url(JSON.stringify([1, KEY[1], KEY[0]])), 'does not fit this list'],
    ['a key that is too short', toBase64url(JSON.stringify([1, KEY[0]])), 'does not fit this list'],
    [
      'a timestamp that is no timestamp',
      toBase64url(JSON.stringify([1, 'yesterday', KEY[1]])),
      'does not fit',
    ],
    ['too long', 'a'.repeat(CURSOR_MAX_LENGTH + 1), `longer than ${CURSOR_MAX_LENGTH} characters`],
  ])('refuse a cursor that is %s', (_name, cursor, reason) => {
    const decoded = decodeCursor(cursor, CreatedAtIdKey);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toContain(reason);
  });

  it('refuse a cursor of another format version, saying to start again', () => {
    const decoded = decodeCursor(toBase64url(JSON.stringify([2, ...KEY])), CreatedAtIdKey);
    expect(decoded).toEqual({
      ok: false,
      reason: 'comes from another version of the API; start again from the first page',
    });
  });
});
