/**
 * The one database driver, on node-postgres. Every unit of work runs in its own transaction, either as
 * the calling user (RLS applies) or, explicitly, as the service; inside `withCallerTransaction`, the
 * caller's units of work share one transaction instead. On a direct connection each statement is
 * named after its text, so each connection parses and plans it once (statement-names.ts); through a
 * transaction-mode pooler none is, so no prepared statement outlives a transaction (docs/decisions/0027).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { describeError } from './describe-error.ts';
import { asDatabaseFailure, databaseUnavailable } from './db-errors.ts';
import { AppError } from './errors.ts';
import { IDLE_IN_TRANSACTION_TIMEOUT_SECONDS, STATEMENT_TIMEOUT_SECONDS } from './limits.ts';
import type { Logger } from './logger.ts';
import { jwtClaimsFor } from './principal.ts';
import type { Principal } from './principal.ts';
import {
  isStaleStatement,
  noStatementNames,
  staleStatementFailure,
  statementNames,
  type StatementNames,
} from './statement-names.ts';

export { customPlanned, MAX_NAMED_STATEMENTS } from './statement-names.ts';

/** What a queries module receives: bound-parameter SQL and nothing else of the driver. */
export interface Sql {
  query<Row extends Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /**
   * The unit of work's last statement: inside a transaction of its own, its COMMIT is sent right behind
   * it, in the same round trip (the connection pipelines), and any statement after it is refused. Inside
   * a shared transaction, or outside any, it is `query`.
   */
  lastStatement<Row extends Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
  ): Promise<Row[]>;
}

/** `sql` whose every statement is `lastStatement`: to hand a queries function the unit of work's last statement. */
export const asLastStatement = (sql: Sql): Sql => ({
  query: sql.lastStatement,
  lastStatement: sql.lastStatement,
});

export type UnitOfWork<T> = (sql: Sql) => Promise<T>;

/**
 * How long Postgres lets one statement run, and a transaction sit idle between two, before it cancels
 * the statement (or ends the session); either way the unit of work fails as `503 unavailable`.
 */
export interface StatementBounds {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** Every unit of work's bounds unless it asks for others (limits.ts, published in /v1/meta/limits). */
export const DEFAULT_STATEMENT_BOUNDS: StatementBounds = {
  statementTimeoutMs: STATEMENT_TIMEOUT_SECONDS.default * 1_000,
  idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_SECONDS.default * 1_000,
};

/**
 * The ways into the database, one for each kind of work. A request's work for its caller: `asCaller`.
 * A request whose writes must commit together with its idempotency record: `withCallerTransaction`. A
 * read whose credential check goes ahead of it in the same round trip: `withServiceWorkAhead`. Work of
 * the service's own, with no user behind it (counting a request, a sweep, the mail outbox):
 * `serviceStatements`.
 */
export interface Database {
  /**
   * Runs `work` in a transaction as the caller: role `authenticated` with `caller`'s JWT claims, or,
   * for `null` (someone signed out), role `anon` with claims that name no user, so `auth.uid()` is null.
   * Inside `withCallerTransaction` for the same caller, it joins that transaction (as a savepoint)
   * instead, and keeps that transaction's bounds. `bounds` replace the database's own for this transaction.
   */
  asCaller<T>(caller: Principal | null, work: UnitOfWork<T>, bounds?: StatementBounds): Promise<T>;
  /**
   * Runs `work` in one transaction as `principal` that every `asCaller` for the same caller made while
   * `work` runs joins, so they commit or roll back together with what `work` itself writes. The
   * idempotency middleware wraps a request in it: the key's record commits exactly when the effect does.
   * The joined units' `lastStatement` is a plain statement; `work`'s own may carry the COMMIT, once they are done.
   */
  withCallerTransaction<T>(principal: Principal, work: UnitOfWork<T>): Promise<T>;
  /**
   * Runs `run` with `opening` (statements as the service, each on its own) sent first, on a connection
   * kept for `principal`'s first `asCaller` inside `run`: that transaction is sent right behind the
   * opening, without waiting for it, so both travel in one round trip. Every other use of the database
   * inside `run` waits for the opening first, and fails as it failed. Only for requests that change
   * nothing: their first transaction runs before the opening's verdict is known (docs/decisions/0030).
   */
  withServiceWorkAhead<O, T>(
    principal: Principal,
    opening: UnitOfWork<O>,
    run: (opened: Promise<O>) => Promise<T>,
  ): Promise<T>;
  /**
   * Runs `work` as the service (the connection's own role, RLS bypassed) on one connection, without a
   * transaction: each statement commits on its own, and the statements `work` sends without waiting in
   * between (Promise.all) travel in one round trip. For non-user work only, which is one statement or a
   * few that need not commit together; nothing in the API needs a service transaction.
   */
  serviceStatements<T>(work: UnitOfWork<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  logger: Logger;
  maxConnections?: number;
  connectTimeoutMs?: number;
  /** TLS to the database (db-connection.ts); none by default, as on the local stand-in. */
  ssl?: false | ConnectionOptions;
  /** The bounds of every unit of work; DEFAULT_STATEMENT_BOUNDS unless given (tests lower them). */
  bounds?: StatementBounds;
  /**
   * Whether statements are named, so each connection prepares them once (the default): only on a direct
   * connection. Transaction-mode poolers (Supavisor on 6543, PgBouncer) do not keep them; pass false.
   */
  preparedStatements?: boolean;
}

/**
 * Bounds the transaction: set local, because the role's own settings never apply (they load at login,
 * not on SET ROLE) and because a transaction-mode pooler hands the connection to others afterwards.
 */
const boundsOf = ({ statementTimeoutMs, idleInTransactionTimeoutMs }: StatementBounds): string =>
  `set_config('statement_timeout', ${pg.escapeLiteral(String(Math.trunc(statementTimeoutMs)))}, true), ` +
  `set_config('idle_in_transaction_session_timeout', ${pg.escapeLiteral(String(Math.trunc(idleInTransactionTimeoutMs)))}, true)`;

/**
 * Opens a transaction as the caller in one round trip: a simple query of two statements, which cannot
 * take bound parameters, so the claims (JSON we made ourselves) go in as a quoted literal.
 */
const beginAsCaller = ({ role, claims }: Caller, bounds: StatementBounds): string =>
  `begin; select set_config('role', ${pg.escapeLiteral(role)}, true), ` +
  `set_config('request.jwt.claims', ${pg.escapeLiteral(claims)}, true), ${boundsOf(bounds)}`;

export function createDatabase({
  url,
  logger,
  maxConnections = 5,
  connectTimeoutMs = 2_000,
  bounds = DEFAULT_STATEMENT_BOUNDS,
  ssl = false,
  preparedStatements = true,
}: DatabaseOptions): Database {
  const names = preparedStatements ? statementNames() : noStatementNames;
  const pool = new pg.Pool({
    connectionString: url,
    ssl,
    max: maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Statements sent without waiting in between share a round trip (docs/decisions/0016).
    pipeline: true,
  });
  // Without a listener, an idle connection dropped by the server is an uncaught error: the process dies.
  pool.on('error', (error) => logger.warn('idle database connection lost', describeError(error)));
  // The session's defaults bound `serviceStatements`, which run outside any transaction of ours. Not as
  // startup parameters: PgBouncer refuses unknown ones. Behind a transaction-mode pooler a session
  // setting may stay on the server connection for its next client, which sets the same bounds itself;
  // so every transaction also sets its own (boundsOf), and that is what holds there.
  pool.on('connect', (client) => {
    client
      .query(
        `set statement_timeout = ${Math.trunc(bounds.statementTimeoutMs)}; set idle_in_transaction_session_timeout = ${Math.trunc(bounds.idleInTransactionTimeoutMs)}`,
      )
      .catch((error: unknown) => logger.warn('could not bound a new database session', describeError(error)));
  });

  // The caller transaction `withCallerTransaction` has open in this async context, if any.
  const shared = new AsyncLocalStorage<SharedTransaction>();
  // The request's opening `withServiceWorkAhead` sent in this async context, if any.
  const opened = new AsyncLocalStorage<OpenedRequest>();
  const asCallerAlone = <T>(caller: Caller, work: UnitOfWork<T>, own = bounds) =>
    inTransaction(pool, logger, names, work, beginAsCaller(caller, own));

  return {
    asCaller: (principal, work, own) => {
      const caller = callerOf(principal);
      const open = shared.getStore();
      if (open?.claims === caller.claims) return inSavepoint(open.sql, work);
      const request = opened.getStore();
      const kept = request?.claims === caller.claims ? request.take() : undefined;
      if (kept) return inTransactionOn(kept, logger, names, work, beginAsCaller(caller, own ?? bounds));
      return afterOpening(request, () => asCallerAlone(caller, work, own));
    },
    withCallerTransaction: (principal, work) => {
      const caller = callerOf(principal);
      // The units of work that join must not end the transaction; `work` itself may, last.
      return afterOpening(opened.getStore(), () =>
        asCallerAlone(caller, (sql) =>
          shared.run({ claims: caller.claims, sql: withoutCommit(sql) }, () => work(sql)),
        ),
      );
    },
    withServiceWorkAhead: async (principal, opening, run) => {
      const request = await openRequest(pool, logger, names, callerOf(principal).claims, opening);
      try {
        return await opened.run(request.state, () => run(request.result));
      } finally {
        await request.state.giveBack();
      }
    },
    serviceStatements: (work) =>
      afterOpening(opened.getStore(), () => onOneConnection(pool, logger, names, work)),
    close: () => pool.end(),
  };
}

/** A request's opening (Database.withServiceWorkAhead) and the connection kept for its first transaction. */
interface OpenedRequest {
  /** The JWT claims of the principal whose first transaction may take the connection. */
  claims: string;
  /** The kept connection, once: undefined when a transaction took it or it went back to the pool. */
  take(): pg.PoolClient | undefined;
  /** How the opening ended. */
  outcome: Promise<Settled>;
  /** Gives the connection back to the pool, once the opening is over, unless a transaction took it. */
  giveBack(): Promise<void>;
}

/** Checks out the request's connection and sends `opening` on it, not waiting for it. */
async function openRequest<O>(
  pool: pg.Pool,
  logger: Logger,
  names: StatementNames,
  claims: string,
  opening: UnitOfWork<O>,
): Promise<{ state: OpenedRequest; result: Promise<O> }> {
  const client = await checkOut(pool);
  const onError = (error: Error): void =>
    logger.warn('database connection lost mid-request', describeError(error));
  client.on('error', onError);
  const result = opening(sqlOn(client, names, writingTogether(client)));
  const outcome = settled(result);
  let kept: pg.PoolClient | undefined = client;
  const take = (): pg.PoolClient | undefined => {
    const taken = kept;
    kept = undefined;
    // The transaction that takes it listens for its errors from now on, and releases it.
    taken?.off('error', onError);
    return taken;
  };
  const giveBack = async (): Promise<void> => {
    const { error } = await outcome;
    const unused = take();
    unused?.release(error === undefined ? undefined : brokenBy(error));
  };
  return { state: { claims, take, outcome, giveBack }, result };
}

/**
 * `work` once the request's opening is over, with the opening's connection back in the pool (when no
 * transaction took it); fails as the opening failed. Right away outside `withServiceWorkAhead`.
 */
async function afterOpening<T>(request: OpenedRequest | undefined, work: () => Promise<T>): Promise<T> {
  if (request) {
    await request.giveBack();
    await throwIfFailed(request.outcome);
  }
  return work();
}

interface SharedTransaction {
  /** Whose transaction it is, as the JWT claims it runs with. */
  claims: string;
  sql: Sql;
}

/** Who a transaction runs as: the database role and the JWT claims its policies read. */
interface Caller {
  role: 'authenticated' | 'anon';
  claims: string;
}

const SIGNED_OUT: Caller = { role: 'anon', claims: JSON.stringify({ role: 'anon' }) };

const callerOf = (principal: Principal | null): Caller =>
  principal ? { role: 'authenticated', claims: JSON.stringify(jwtClaimsFor(principal)) } : SIGNED_OUT;

/**
 * A unit of work inside a shared transaction: its own savepoint, so a failure undoes just its part. The
 * savepoint goes with the work's first statement, and its release with whatever the transaction sends
 * next, neither waited for: if either failed, the transaction is aborted, so what follows fails too.
 */
async function inSavepoint<T>(sql: Sql, work: UnitOfWork<T>): Promise<T> {
  const saved = settled(sql.query('savepoint unit_of_work'));
  try {
    const result = await work(sql);
    await throwIfFailed(saved);
    void settled(sql.query('release savepoint unit_of_work'));
    return result;
  } catch (error) {
    // If even this fails, the connection is gone and the shared transaction fails as a whole anyway.
    await sql.query('rollback to savepoint unit_of_work').catch(() => undefined);
    throw (await saved).error ?? error;
  }
}

/** `sql` whose `lastStatement` is a plain statement: for units of work that must not end the transaction. */
const withoutCommit = (sql: Sql): Sql => ({ query: sql.query, lastStatement: sql.query });

/**
 * @param begin the statement(s) that open the transaction and set it up. They are not waited for: the
 * work's first statements follow them in the same round trip. If they fail, the transaction is aborted
 * (the simple query that holds them runs `begin` first), so every statement behind them fails too.
 */
async function inTransaction<T>(
  pool: pg.Pool,
  logger: Logger,
  names: StatementNames,
  work: UnitOfWork<T>,
  begin: string,
): Promise<T> {
  return inTransactionOn(await checkOut(pool), logger, names, work, begin);
}

/** inTransaction on a connection already checked out, which it releases. */
async function inTransactionOn<T>(
  client: pg.PoolClient,
  logger: Logger,
  names: StatementNames,
  work: UnitOfWork<T>,
  begin: string,
): Promise<T> {
  // The pool listens only to idle clients; a checked-out one needs its own listener for the same reason.
  const onError = (error: Error): void =>
    logger.warn('database connection lost mid-request', describeError(error));
  client.on('error', onError);
  let broken: Error | undefined;
  const send = writingTogether(client);
  const opened = settled(send(() => client.query(begin)));
  const transaction = transactionSql(client, names, send);
  try {
    const result = await work(transaction.sql);
    await throwIfFailed(opened);
    await transaction.commit();
    return result;
  } catch (error) {
    const failure = (await opened).error ?? error;
    broken = transaction.committing ? await failedCommit(transaction.committing) : await rollBack(client);
    // A statement prepared before a migration changed its columns: the connection goes, with them all.
    if (isStaleStatement(failure)) broken ??= asError(failure);
    throw asDatabaseFailure(failure);
  } finally {
    client.off('error', onError);
    // Releasing with an error destroys the connection instead of returning a broken one to the pool.
    client.release(broken);
  }
}

interface Settled {
  error?: unknown;
}

/** A promise that never rejects, so one not yet waited for is no unhandled rejection. */
const settled = (promise: Promise<unknown>): Promise<Settled> =>
  promise.then(
    () => ({}),
    (error: unknown) => ({ error }),
  );

async function throwIfFailed(outcome: Promise<Settled>): Promise<void> {
  const { error } = await outcome;
  if (error !== undefined) throw error;
}

interface TransactionSql {
  sql: Sql;
  /** The COMMIT sent behind the last statement, if it was. */
  committing?: Promise<pg.QueryResult>;
  /** Commits, unless the last statement already sent the COMMIT; then waits for it. */
  commit(): Promise<void>;
}

/**
 * The statements of a transaction of its own. After `lastStatement`, the transaction is over: a statement
 * sent then would run as the service, outside the caller's role and claims, so it is refused.
 */
function transactionSql(client: pg.PoolClient, names: StatementNames, send: Send): TransactionSql {
  const statements = sqlOn(client, names, send);
  const state: TransactionSql = {
    sql: {
      query: <Row extends Record<string, unknown>>(text: string, values?: readonly unknown[]) => {
        if (state.committing) throw new Error("a statement after the unit of work's last one");
        return statements.query<Row>(text, values);
      },
      lastStatement: <Row extends Record<string, unknown>>(text: string, values?: readonly unknown[]) => {
        const rows = state.sql.query<Row>(text, values);
        state.committing = send(() => client.query('commit'));
        return rows;
      },
    },
    async commit() {
      const outcome = await (state.committing ?? client.query('commit'));
      // A COMMIT of a transaction a failed statement aborted answers ROLLBACK, with no error.
      if (outcome.command !== 'COMMIT') throw new Error(`the transaction ended with ${outcome.command}`);
    },
  };
  return state;
}

/** Waits for a COMMIT sent behind a failed statement; returns its error if it failed too. */
async function failedCommit(committing: Promise<pg.QueryResult>): Promise<Error | undefined> {
  const { error } = await settled(committing);
  if (error === undefined) return undefined;
  return error instanceof Error ? error : new Error(String(error));
}

/** `work` on one connection of the pool, without a transaction: each statement commits on its own. */
async function onOneConnection<T>(
  pool: pg.Pool,
  logger: Logger,
  names: StatementNames,
  work: UnitOfWork<T>,
): Promise<T> {
  const client = await checkOut(pool);
  const onError = (error: Error): void =>
    logger.warn('database connection lost mid-request', describeError(error));
  client.on('error', onError);
  let broken: Error | undefined;
  try {
    return await work(sqlOn(client, names, writingTogether(client)));
  } catch (error) {
    broken = brokenBy(error);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** A statement that failed leaves the connection usable; a lost or cancelled one does not. */
const brokenBy = (error: unknown): Error | undefined =>
  error instanceof AppError && error.code !== 'unavailable' ? undefined : asError(error);

async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw databaseUnavailable(error);
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

/**
 * Statements on a checked-out connection, sent through `send`. A lost database, or a statement it
 * cancelled for running too long, is told as `unavailable` right where the statement fails: the error
 * may never reach the transaction's own handler, because Hono turns a route's error into its answer
 * before the middleware around the route (idempotency) sees it.
 */
function sqlOn(client: pg.PoolClient, names: StatementNames, send: Send): Sql {
  const sql: Sql = {
    lastStatement: <Row extends Record<string, unknown>>(text: string, values?: readonly unknown[]) =>
      sql.query<Row>(text, values),
    query: async <Row extends Record<string, unknown>>(text: string, values: readonly unknown[] = []) => {
      const name = names.nameOf(text);
      try {
        return (await send(() => client.query<Row>({ text, values: [...values], name }))).rows;
      } catch (error) {
        if (isStaleStatement(error)) {
          names.renew();
          throw staleStatementFailure(error);
        }
        throw asDatabaseFailure(error);
      }
    },
  };
  return sql;
}

/** Sends a statement on a checked-out connection (see writingTogether). */
type Send = <T>(statement: () => T) => T;

/**
 * Statements sent one after another without waiting (the connection pipelines) leave in one write:
 * node-postgres writes each statement as soon as it is sent, a system call and a packet each, and the
 * server wakes up for each. Held back (corked) until the code that sends them yields, they travel
 * together; the microtask always comes, so nothing waits longer than that.
 */
function writingTogether(client: pg.PoolClient): Send {
  const stream = client.connection.stream;
  let held = false;
  return (statement) => {
    if (!held) {
      held = true;
      stream.cork();
      queueMicrotask(() => {
        held = false;
        stream.uncork();
      });
    }
    return statement();
  };
}
