/**
 * SQL for the request counters behind the rate limits. Bookkeeping, not a user's work: runs as the
 * service (db.serviceStatements), on functions in `private` that no API role may call.
 */
import type { Sql } from '../../_shared/db.ts';

export { countRequest, type RequestCountRow } from '../../_shared/auth/request-counts.queries.ts';

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
