/** Whether the API can reach its database. Not a user's request, so it runs as the service. */
import type { Health } from '../../_shared/api-types.ts';
import type { Database } from '../../_shared/db.ts';
import { selectOne } from './health.queries.ts';

/** Resolves when the database answers; otherwise the driver throws `unavailable`. */
export async function checkHealth(db: Database): Promise<Health> {
  await db.serviceStatements(selectOne);
  return { status: 'ok', database: 'ok' };
}
