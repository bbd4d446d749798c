/** SQL for the health check. */
import type { Sql } from '../../_shared/db.ts';

export async function selectOne(sql: Sql): Promise<void> {
  await sql.query('select 1');
}
