import { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../supabase/functions/_shared/db.ts';
import type { Database, Sql } from '../../supabase/functions/_shared/db.ts';
import { AppError } from '../../supabase/functions/_shared/errors.ts';
import {
  IDLE_IN_TRANSACTION_TIMEOUT_SECONDS,
  STATEMENT_TIMEOUT_SECONDS,
} from '../../supabase/functions/_shared/limits.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { captureLogs } from '../support/api-logs.ts';
import { createTestDatabase } from '../support/test-database.ts';
import type { TestDatabase } from '../support/test-database.ts';

const alice: Principal = {
  user_id: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10',
  email: 'alice@example.com',
  aal: 'aal2',
  session_id: '3b0c8a52-4f1e-4b8e-8f0a-51c1e2d3f4a5',
};

const logs = captureLogs();
let database: TestDatabase;
// One connection, so every unit of work below reuses it: what one leaves behind, the next would see.
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase({ url: database.url, logger: logs.logger, maxConnections: 1 });
  await db.serviceStatements(async (sql) => {
    await sql.query('create table public.db_test_notes (body text not null)');
    await sql.query('grant select, insert on public.db_test_notes to authenticated');
  });
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const whoAmI = async (sql: Sql) => {
  const [row] = await sql.query<{ role: string; uid: string | null; claims: string | null }>(
    "select current_user as role, auth.uid() as uid, current_setting('request.jwt.claims', true) as claims",
  );
  return row;
};

describe('asCaller', () => {
  it('runs as role authenticated with the principal as JWT claims, so auth.uid() is the user', async () => {
    const me = await db.asCaller(alice, whoAmI);
    expect(me?.role).toBe('authenticated');
    expect(me?.uid).toBe(alice.user_id);
    expect(JSON.parse(me?.claims ?? '{}')).toEqual({
      sub: alice.user_id,
      role: 'authenticated',
      email: alice.email,
      aal: 'aal2',
      session_id: alice.session_id,
      api_token_id: null,
    });
  });

  it('leaves nothing behind on the connection for the next unit of work', async () => {
    await db.asCaller(alice, whoAmI);
    const next = await db.serviceStatements(whoAmI);
    expect(next?.role).not.toBe('authenticated');
    expect(next?.uid).toBeNull();
    expect(next?.claims ?? '').toBe('');
  });

  it('commits the unit of work', async () => {
    await db.asCaller(alice, (sql) => sql.query('insert into public.db_test_notes values ($1)', ['kept']));
    expect(await notes()).toContain('kept');
  });

  it('rolls back when the work throws, passes the error on, and releases the connection', async () => {
    const failure = new Error('rule broken');
    const attempt = db.asCaller(alice, async (sql) => {
      await sql.query('insert into public.db_test_notes values ($1)', ['discarded']);
      throw failure;
    });
    await expect(attempt).rejects.toBe(failure);
    expect(await notes()).not.toContain('discarded');
  });

  it('passes a query error on as it is (the queries module translates it)', async () => {
    const attempt = db.asCaller(alice, (sql) => sql.query('insert into public.db_test_notes values (null)'));
    await expect(attempt).rejects.toMatchObject({ code: '23502' });
    expect(await notes()).toContain('kept');
  });
});

describe('asCaller for someone signed out (null)', () => {
  it('runs as role anon with claims that name no user, and leaves nothing behind', async () => {
    const me = await db.asCaller(null, whoAmI);
    expect(me?.role).toBe('anon');
    expect(me?.uid).toBeNull();
    expect(JSON.parse(me?.claims ?? '{}')).toEqual({ role: 'anon' });
    const next = await db.serviceStatements(whoAmI);
    expect(next?.role).not.toBe('anon');
    expect(next?.claims ?? '').toBe('');
  });

  it('cannot read the tables, on which anon has no grant', async () => {
    await expect(
      db.asCaller(null, (sql) => sql.query('select id from public.tasks limit 1')),
    ).rejects.toThrow();
  });
});

describe('serviceStatements', () => {
  it('runs as the service, and commits each statement on its own: one that fails undoes no other', async () => {
    const attempt = db.serviceStatements(async (sql) => {
      const [me] = await sql.query<{ role: string }>('select current_user as role');
      await sql.query('insert into public.db_test_notes values ($1)', [`written by ${me?.role}`]);
      await sql.query('insert into public.db_test_notes values (null)');
    });
    await expect(attempt).rejects.toMatchObject({ code: '23502' });
    const written = (await notes()).filter((body) => body.startsWith('written by '));
    expect(written).toHaveLength(1);
    expect(written[0]).not.toMatch(/authenticated|anon/);
  });

  it('leaves the connection usable after a failed statement (this database has one)', async () => {
    await expect(db.serviceStatements((sql) => sql.query('select 1/0'))).rejects.toMatchObject({
      code: '22012',
    });
    expect(await db.serviceStatements((sql) => sql.query('select 1 as one'))).toEqual([{ one: 1 }]);
  });
});

/** How many writes the process makes on its sockets (the database's, here) while `work` runs. */
async function socketWritesDuring(work: () => Promise<unknown>): Promise<number> {
  let writes = 0;
  const socket = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const originals = { _write: socket._write, _writev: socket._writev };
  for (const name of ['_write', '_writev'] as const) {
    socket[name] = function (this: Socket, ...args: unknown[]) {
      writes += 1;
      return originals[name].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(socket, originals);
  }
  return writes;
}

describe('pipelined statements', () => {
  it('leave in one write: the opening, the statements sent together, and the COMMIT behind the last', async () => {
    await db.asCaller(alice, whoAmI); // the connection exists, its session bounds are set
    const writes = await socketWritesDuring(() =>
      db.asCaller(alice, (sql) =>
        Promise.all([sql.query('select 1'), sql.query('select $1::int', [2]), sql.lastStatement('select 3')]),
      ),
    );
    expect(writes).toBe(1);
  });

  it('that a unit of work sends after waiting leave in a write of their own', async () => {
    await db.asCaller(alice, whoAmI);
    const writes = await socketWritesDuring(() =>
      db.asCaller(alice, async (sql) => {
        await sql.query('select 1');
        return sql.lastStatement('select 2');
      }),
    );
    expect(writes).toBe(2);
  });

  it('on one connection without a transaction leave in one write too', async () => {
    await db.serviceStatements((sql) => sql.query('select 1'));
    const writes = await socketWritesDuring(() =>
      db.serviceStatements((sql) => Promise.all([sql.query('select 1'), sql.query('select $1::int', [2])])),
    );
    expect(writes).toBe(1);
  });
});

describe('withCallerTransaction', () => {
  const bob: Principal = {
    ...alice,
    user_id: 'c0a8012e-7a4b-4d3c-8e2f-1a2b3c4d5e6f',
    email: 'bob@example.com',
  };
  const insertNote = (body: string) =>
    db.asCaller(alice, (sql) => sql.query('insert into public.db_test_notes values ($1)', [body]));
  const transactionId = (sql: Sql) =>
    sql.query<{ id: string }>('select pg_current_xact_id()::text as id').then(([row]) => row?.id);

  it("is joined by the caller's units of work, on its one connection, in its one transaction", async () => {
    // This database has a single connection: a unit of work that did not join would wait for it forever.
    const [outer, inner] = await db.withCallerTransaction(alice, async (sql) => {
      await insertNote('joined');
      return [await transactionId(sql), await db.asCaller(alice, transactionId)];
    });
    expect(inner).toBe(outer);
    expect(await notes()).toContain('joined');
  });

  it('rolls back what the joined units wrote when it fails', async () => {
    const attempt = db.withCallerTransaction(alice, async () => {
      await insertNote('rolled back with the request');
      throw new Error('the request failed');
    });
    await expect(attempt).rejects.toThrow('the request failed');
    expect(await notes()).not.toContain('rolled back with the request');
  });

  it('undoes a failed unit of work alone, and commits the rest', async () => {
    await db.withCallerTransaction(alice, async () => {
      await insertNote('kept beside a failure');
      const failing = db.asCaller(alice, async (sql) => {
        await sql.query('insert into public.db_test_notes values ($1)', ['undone']);
        await sql.query('insert into public.db_test_notes values (null)');
      });
      await expect(failing).rejects.toMatchObject({ code: '23502' });
    });
    const kept = await notes();
    expect(kept).toContain('kept beside a failure');
    expect(kept).not.toContain('undone');
  });

  it('is not joined by another caller, nor by the service', async () => {
    const twoConnections = createDatabase({ url: database.url, logger: logs.logger, maxConnections: 3 });
    try {
      const ids = await twoConnections.withCallerTransaction(alice, async (sql) => ({
        outer: await transactionId(sql),
        bob: await twoConnections.asCaller(bob, async (other) => [
          await transactionId(other),
          await whoAmI(other),
        ]),
        service: await twoConnections.serviceStatements(transactionId),
      }));
      expect(ids.bob[0]).not.toBe(ids.outer);
      expect(ids.bob[1]).toMatchObject({ uid: bob.user_id });
      expect(ids.service).not.toBe(ids.outer);
    } finally {
      await twoConnections.close();
    }
  });
});

describe('statement bounds (the first security review: any user could stall the database)', () => {
  const bounds = async (sql: Sql) => {
    const [row] = await sql.query<{ statement: string; idle: string }>(
      `select current_setting('statement_timeout') as statement,
         current_setting('idle_in_transaction_session_timeout') as idle`,
    );
    return row;
  };
  const production = {
    statement: `${STATEMENT_TIMEOUT_SECONDS.default}s`,
    idle: `${IDLE_IN_TRANSACTION_TIMEOUT_SECONDS.default}s`,
  };

  it('hold in a caller transaction, where the role setting of authenticated never applies', async () => {
    expect(await db.asCaller(alice, bounds)).toEqual(production);
  });

  it('hold in a shared caller transaction and the units of work that join it', async () => {
    const [outer, inner] = await db.withCallerTransaction(alice, async (sql) => [
      await bounds(sql),
      await db.asCaller(alice, bounds),
    ]);
    expect(outer).toEqual(production);
    expect(inner).toEqual(production);
  });

  it("hold for the service's statements, which run outside any transaction", async () => {
    expect(await db.serviceStatements(bounds)).toEqual(production);
  });

  it("may be given for one unit of work (the export's), and end with its transaction", async () => {
    const exportBounds = { statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 };
    expect(await db.asCaller(alice, bounds, exportBounds)).toEqual({ statement: '30s', idle: '1min' });
    expect(await db.asCaller(alice, bounds)).toEqual(production);
  });

  it('cancel a statement that runs too long, answered as 503 unavailable, in every kind of unit', async () => {
    const short = createDatabase({
      url: database.url,
      logger: logs.logger,
      maxConnections: 1,
      bounds: { statementTimeoutMs: 50, idleInTransactionTimeoutMs: 10_000 },
    });
    const sleep = (sql: Sql) => sql.query('select pg_sleep(2)');
    try {
      for (const attempt of [
        () => short.asCaller(alice, sleep),
        () => short.withCallerTransaction(alice, sleep),
        () => short.serviceStatements(sleep),
      ]) {
        const startedAt = performance.now();
        await expectUnavailable(attempt());
        expect(performance.now() - startedAt).toBeLessThan(1_500);
      }
      // The connection is fine afterwards.
      expect(await short.serviceStatements(bounds)).toEqual({ statement: '50ms', idle: '10s' });
    } finally {
      await short.close();
    }
  });

  it('end a transaction left idle too long, answered as 503 unavailable', async () => {
    const short = createDatabase({
      url: database.url,
      logger: logs.logger,
      maxConnections: 1,
      bounds: { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 100 },
    });
    try {
      const attempt = short.asCaller(alice, async (sql) => {
        await sql.query('select 1');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await sql.query('select 1');
      });
      await expectUnavailable(attempt);
      expect(await short.serviceStatements(bounds)).toEqual({ statement: '5s', idle: '100ms' });
    } finally {
      await short.close();
    }
  });
});

describe('a connection that dies', () => {
  it('mid-query becomes 503 unavailable, and the next unit of work gets a fresh connection', async () => {
    const attempt = db.asCaller(alice, async (sql) => {
      const [row] = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
      await Promise.all([sql.query('select pg_sleep(10)'), terminate(row?.pid)]);
    });
    await expectUnavailable(attempt);
    expect(await notes()).toContain('kept');
  });

  it('while checked out but idle is logged, not fatal, and the unit of work fails as unavailable', async () => {
    const attempt = db.asCaller(alice, async (sql) => {
      const [row] = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
      await terminate(row?.pid);
      await expect
        .poll(() => logs.entries.some((e) => e.msg === 'database connection lost mid-request'))
        .toBe(true);
      await sql.query('select 1');
    });
    await expectUnavailable(attempt);
    expect(await notes()).toContain('kept');
  });
});

async function notes(): Promise<string[]> {
  const rows = await db.serviceStatements((sql) =>
    sql.query<{ body: string }>('select body from public.db_test_notes'),
  );
  return rows.map((row) => row.body);
}

async function terminate(pid: number | undefined): Promise<void> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

async function expectUnavailable(attempt: Promise<unknown>): Promise<void> {
  const error: unknown = await attempt.then(
    () => new Error('the unit of work succeeded'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'unavailable', headers: { 'Retry-After': '5' } });
}
