/**
 * The stand-in's one way to Postgres: Auth, the demo data, housekeeping and the bench's seeding all go
 * through it. It keeps the discipline of supabase/functions/_shared/db.ts (which it does not import: that
 * one answers in the API's errors and roles): a listener for errors on every connection, idle or checked
 * out, so a dropped one never crashes the stand-in; a connection that broke is released with its error,
 * so the pool drops it instead of handing it out again; every statement runs within bounds.
 */
import pg from 'pg';

/** What a queries module of the stand-in receives: the pool (each statement on its own) or a transaction. */
export type Db = pg.Pool | pg.PoolClient;

/** How long Postgres lets one statement run, and a transaction sit idle between two, before ending it. */
export interface StatementBounds {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** The API's default bounds (supabase/functions/_shared/limits.ts); Auth's work is no longer than its. */
export const STAND_IN_STATEMENT_BOUNDS: StatementBounds = {
  statementTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 10_000,
};

export interface Database {
  /** Statements each on its own (autocommit), on a pooled connection for as long as one runs. */
  statements: Db;
  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  maxConnections: number;
  /** Where a lost connection is reported (the stand-in's log). */
  log: (line: string) => void;
  /** STAND_IN_STATEMENT_BOUNDS unless given. */
  bounds?: StatementBounds;
}

export function openDatabase({
  url,
  maxConnections,
  log,
  bounds = STAND_IN_STATEMENT_BOUNDS,
}: DatabaseOptions): Database {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  // Without a listener, an idle connection dropped by the server is an uncaught error: the process dies.
  pool.on('error', (error) => log(`idle database connection lost: ${error.message}`));
  // Bounds the statements run outside a transaction of ours; each transaction also sets its own.
  pool.on('connect', (client) => {
    client
      .query(
        `set statement_timeout = ${Math.trunc(bounds.statementTimeoutMs)}; ` +
          `set idle_in_transaction_session_timeout = ${Math.trunc(bounds.idleInTransactionTimeoutMs)}`,
      )
      .catch((error: unknown) => log(`could not bound a new database session: ${messageOf(error)}`));
  });
  const begin = beginWithin(bounds);
  return {
    statements: pool,
    transaction: (work) => inTransaction(pool, log, begin, work),
    close: () => pool.end(),
  };
}

/** Opens the transaction and bounds it, in one round trip: set local, so whatever the session set is moot. */
const beginWithin = ({ statementTimeoutMs, idleInTransactionTimeoutMs }: StatementBounds): string =>
  'begin; select ' +
  `set_config('statement_timeout', ${pg.escapeLiteral(String(Math.trunc(statementTimeoutMs)))}, true), ` +
  `set_config('idle_in_transaction_session_timeout', ${pg.escapeLiteral(String(Math.trunc(idleInTransactionTimeoutMs)))}, true)`;

async function inTransaction<T>(
  pool: pg.Pool,
  log: (line: string) => void,
  begin: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // The pool listens only to idle clients; a checked-out one needs its own listener for the same reason.
  let lost: Error | undefined;
  const onError = (error: Error): void => {
    lost = error;
    log(`database connection lost mid-transaction: ${error.message}`);
  };
  client.on('error', onError);
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    broken = await rollBack(client);
    throw error;
  } finally {
    client.off('error', onError);
    // Releasing with an error destroys the connection instead of returning a broken one to the pool.
    client.release(broken ?? lost);
  }
}

/** Rolls back; returns the error if even that failed, meaning the connection is unusable. */
async function rollBack(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query('rollback');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
