/**
 * SQL that counts a request against a rate-limit bucket (docs/product.md#limits). Bookkeeping, not a user's
 * work: runs as the service, on functions in `private` that no API role may call. Authentication sends the
 * count of the caller's bucket in the same round trip as its own check (docs/decisions/0016).
 */
import type { Sql } from '../db.ts';

export interface RequestCountRow extends Record<string, unknown> {
  hits: number;
  window_started_at: Date;
  resets_in_seconds: number;
}

/** Counts one request against `bucket` in the current window; one statement. */
export async function countRequest(
  sql: Sql,
  bucket: string,
  windowSeconds: number,
): Promise<RequestCountRow> {
  const [row] = await sql.query<RequestCountRow>(
    'select hits, window_started_at, resets_in_seconds from private.count_request($1, $2)',
    [bucket, windowSeconds],
  );
  if (!row) throw new Error('private.count_request answered no row');
  return row;
}

/**
 * Counts one request against the bucket of the API token whose secret hashes to `tokenHashHex`
 * (`api_token:<id>`, as principalKeyOf names it), without waiting to learn its id; none when no token
 * has that hash. Whether the token may be used is authenticate_api_token's to say.
 */
export async function countApiTokenRequest(
  sql: Sql,
  tokenHashHex: string,
  windowSeconds: number,
): Promise<RequestCountRow | undefined> {
  const [row] = await sql.query<RequestCountRow>(
    `select counted.hits, counted.window_started_at, counted.resets_in_seconds
     from public.api_tokens as token
     cross join lateral private.count_request('api_token:' || token.id::text, $2) as counted
     where token.token_hash = decode($1, 'hex')`,
    [tokenHashHex, windowSeconds],
  );
  return row;
}
