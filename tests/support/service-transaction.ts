/**
 * A transaction as the service, for tests that arrange or inspect rows behind RLS's back. The API has
 * no such way into the database (nothing it does as the service needs one), so tests build it on the
 * service's statements: one connection, BEGIN before the work, COMMIT after, ROLLBACK when it throws.
 */
import type { Database, UnitOfWork } from '../../supabase/functions/_shared/db.ts';

export function asService<T>(db: Database, work: UnitOfWork<T>): Promise<T> {
  return db.serviceStatements(async (sql) => {
    await sql.query('begin');
    try {
      const result = await work(sql);
      await sql.query('commit');
      return result;
    } catch (error) {
      await sql.query('rollback').catch(() => undefined);
      throw error;
    }
  });
}
