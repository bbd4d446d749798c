import type { Db } from '../local/db.ts';
import type { Sql } from '../supabase/functions/_shared/db.ts';

/** The queries modules' `Sql` straight on a pool or a client: no transaction, role or claims of its own. */
export function rawSql(db: Db): Sql {
  const sql: Sql = {
    query: async (text, values = []) => (await db.query(text, [...values])).rows,
    lastStatement: (text, values) => sql.query(text, values),
  };
  return sql;
}
