/**
 * SQL for the request counters behind the rate limits. Bookkeeping, not a user's work: runs as the
 * service (db.serviceStatements), on functions in `private` that no API role may call.
 */
import type { Sql } from '../../_shared/db.ts';

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

/** Takes back one counted request of the window that started at `windowStartedAt`; the count now, if it still runs. */
export async function uncountRequest(
  sql: Sql,
  bucket: string,
  windowStartedAt: Date,
): Promise<number | undefined> {
  const [row] = await sql.query<{ hits: number | null }>('select private.uncount_request($1, $2) as hits', [
    bucket,
    windowStartedAt,
  ]);
  return row?.hits ?? undefined;
}
