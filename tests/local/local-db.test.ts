/**
 * local/db.ts keeps the discipline of supabase/functions/_shared/db.ts: a connection the server drops,
 * idle or in the middle of a transaction, is logged and replaced instead of crashing the stand-in or
 * going back to the pool broken; every statement runs within the stand-in's bounds.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { openDatabase, type Database } from '../../local/db.ts';
import { startTestCluster, type TestCluster } from '../support/test-cluster.ts';

let testCluster: TestCluster;
let admin: pg.Client;
let database: Database;
const log = vi.fn<(line: string) => void>();

beforeAll(async () => {
  testCluster = await startTestCluster();
  admin = new pg.Client({ connectionString: testCluster.cluster.url() });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await testCluster.dispose();
});

afterEach(async () => {
  await database.close();
  log.mockReset();
});

/** One connection at most, so the next transaction must run on the same one or a new one. */
const openWithOneConnection = (bounds?: Parameters<typeof openDatabase>[0]['bounds']) => {
  database = openDatabase({ url: testCluster.cluster.url(), maxConnections: 1, log, bounds });
  return database;
};

const backendPid = async (client: pg.ClientBase | pg.Pool): Promise<number> =>
  (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;

/** Ends the backend and waits until the client has read the server's farewell and the socket closed. */
async function terminate(client: pg.ClientBase, pid: number): Promise<void> {
  // Not events.once: it listens for 'error' too, and would hide a missing listener.
  const ended = new Promise((resolve) => client.once('end', resolve));
  await admin.query('select pg_terminate_backend($1)', [pid]);
  await ended;
}

describe('openDatabase', () => {
  test('a connection lost in the middle of a transaction fails it, is dropped from the pool, and the next transaction works', async () => {
    const db = openWithOneConnection();
    let lostPid = 0;
    const lost = db.transaction(async (client) => {
      lostPid = await backendPid(client);
      await terminate(client, lostPid);
      await client.query('select 1');
    });
    await expect(lost).rejects.toThrow();
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^database connection lost mid-transaction: /));

    const nextPid = await db.transaction((client) => backendPid(client));
    expect(nextPid).not.toBe(lostPid);
  });

  test('an idle connection the server drops is logged, not thrown, and replaced', async () => {
    const db = openWithOneConnection();
    const client = await db.transaction(async (checkedOut) => checkedOut);
    const idlePid = await backendPid(db.statements);
    await terminate(client, idlePid);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^idle database connection lost: /));

    expect(await backendPid(db.statements)).not.toBe(idlePid);
  });

  test('a transaction whose work fails is rolled back and its connection used again', async () => {
    const db = openWithOneConnection();
    const pid = await backendPid(db.statements);
    await db.statements.query('create temporary table kept (n int)');
    const failing = db.transaction(async (client) => {
      await client.query('insert into kept values (1)');
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');

    expect((await db.statements.query('select n from kept')).rows).toEqual([]);
    expect(await backendPid(db.statements)).toBe(pid);
    expect(log).not.toHaveBeenCalled();
  });

  test('transactions and single statements run within the bounds, which cancel a statement that runs too long', async () => {
    const db = openWithOneConnection({ statementTimeoutMs: 250, idleInTransactionTimeoutMs: 1_000 });
    const settings = (client: pg.ClientBase | pg.Pool) =>
      client
        .query<{ statement: string; idle: string }>(
          `select current_setting('statement_timeout') as statement,
             current_setting('idle_in_transaction_session_timeout') as idle`,
        )
        .then(({ rows }) => rows[0]);
    const bounded = { statement: '250ms', idle: '1s' };

    expect(await db.transaction((client) => settings(client))).toEqual(bounded);
    expect(await settings(db.statements)).toEqual(bounded);
    // Even a transaction that changed the session's settings on its own runs within the bounds.
    await db.statements.query('set statement_timeout = 0');
    expect(await db.transaction((client) => settings(client))).toEqual(bounded);
    await expect(db.transaction((client) => client.query('select pg_sleep(30)'))).rejects.toThrow(
      'canceling statement due to statement timeout',
    );
  });
});
