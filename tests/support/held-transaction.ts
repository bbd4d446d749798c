/**
 * For race tests: a transaction held open as a user on a connection of its own, and a way to tell, without
 * timing, whether another statement is waiting for it. A test runs A's statement in a held transaction,
 * starts B's, waits until B is either blocked by A or finished, commits A, and reads B's outcome: the same
 * interleaving on every run.
 */
import pg from 'pg';
import { ensureLiveSession, liveSessionClaims } from './live-session.ts';
import type { Outcome } from './sql-as-user.ts';

export interface HeldTransaction {
  /** The backend process id of the connection, which pg_blocking_pids() names. */
  readonly pid: number;
  /** Runs a statement in the open transaction; a refusal ends the transaction (rolled back). */
  run<Row extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<Outcome<Row>>;
  commit(): Promise<void>;
  /** Rolls back whatever is open and closes the connection. */
  close(): Promise<void>;
}

/** Opens a connection and a transaction on it as `userId` (role authenticated with their claims). */
export async function holdTransactionAs(databaseUrl: string, userId: string): Promise<HeldTransaction> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const [backend] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
  if (!backend) throw new Error('pg_backend_pid() answered nothing');
  await ensureLiveSession(client, userId);
  await client.query('begin');
  await client.query(
    `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
    [liveSessionClaims(userId)],
  );
  return {
    pid: backend.pid,
    run: async <Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
      try {
        return { rows: (await client.query<Row>(sql, values)).rows };
      } catch (error) {
        await client.query('rollback');
        return { refused: (error as { hint?: string }).hint };
      }
    },
    commit: async () => {
      await client.query('commit');
    },
    close: async () => {
      await client.query('rollback').catch(() => undefined);
      await client.end();
    },
  };
}

/**
 * Resolves `blocked` once some backend of the database waits for a lock `holderPid` holds, or `finished`
 * once `pending` has settled (it did not wait), whichever comes first. Polls pg_blocking_pids().
 */
export async function blockedBy(
  observer: pg.Client,
  holderPid: number,
  pending: Promise<unknown>,
): Promise<'blocked' | 'finished'> {
  let settled = false;
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (;;) {
    if (settled) return 'finished';
    const { rows } = await observer.query<{ waiting: boolean }>(
      `select exists (
         select 1 from pg_stat_activity a
         where a.datname = current_database() and $1 = any(pg_blocking_pids(a.pid))
       ) as waiting`,
      [holderPid],
    );
    if (rows[0]?.waiting) return 'blocked';
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
