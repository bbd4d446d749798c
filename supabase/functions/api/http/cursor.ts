/**
 * Page cursors: opaque to clients, they carry the sort key of the last row a page held (see
 * _shared/pages.ts), as base64url of a JSON array that starts with the format version. The version
 * lets the format change later: a cursor of another version is refused like any malformed one, with a
 * detail saying to start again from the first page.
 */
import type { z } from 'zod';
import type { SortKey } from '../../_shared/pages.ts';
import { BASE64URL, toBase64url, utf8FromBase64url } from '../../_shared/base64url.ts';

export const CURSOR_FORMAT_VERSION = 1;
/** Longer than any cursor this API issues, short enough that nobody sends megabytes through it. */
export const CURSOR_MAX_LENGTH = 512;

export type DecodedCursor<Key> = { ok: true; key: Key } | { ok: false; reason: string };

export function encodeCursor(key: SortKey): string {
  return toBase64url(new TextEncoder().encode(JSON.stringify([CURSOR_FORMAT_VERSION, ...key])));
}

/** The sort key a cursor carries, checked against the key the list sorts by; or why it is no cursor. */
export function decodeCursor<Key>(cursor: string, keySchema: z.ZodType<Key>): DecodedCursor<Key> {
  const notOurs = (why: string) =>
    ({ ok: false, reason: `is not a cursor this list issued: ${why}` }) as const;
  if (cursor.length > CURSOR_MAX_LENGTH) return notOurs(`it is longer than ${CURSOR_MAX_LENGTH} characters`);
  if (!BASE64URL.test(cursor)) return notOurs('it is not base64url');
  const content = parseJson(utf8FromBase64url(cursor));
  if (!Array.isArray(content) || content.length === 0) return notOurs('it does not hold a position');
  const [version, ...key] = content as unknown[];
  if (version !== CURSOR_FORMAT_VERSION) {
    return { ok: false, reason: 'comes from another version of the API; start again from the first page' };
  }
  const parsed = keySchema.safeParse(key);
  return parsed.success ? { ok: true, key: parsed.data } : notOurs('its position does not fit this list');
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
