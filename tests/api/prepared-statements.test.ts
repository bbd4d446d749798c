/**
 * Named prepared statements (docs/decisions/0027): on a direct connection every statement a queries
 * module sends is prepared once per connection and reused; through a transaction-mode pooler none is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, MAX_NAMED_STATEMENTS } from '../../supabase/functions/_shared/db.ts';
import type { Database, Sql } from '../../supabase/functions/_shared/db.ts';
import { AppError } from '../../supabase/functions/_shared/errors.ts';
import {
  selectTaskCounts,
  selectTasks,
  type TaskFilters,
} from '../../supabase/functions/api/tasks/tasks.queries.ts';
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
const bob = '8e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const logs = captureLogs();
let database: TestDatabase;
// One connection each, so that what one statement prepares, the next one on that database finds.
let named: Database;
let unnamed: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  named = createDatabase({ url: database.url, logger: logs.logger, maxConnections: 1 });
  unnamed = createDatabase({
    url: database.url,
    logger: logs.logger,
    maxConnections: 1,
    preparedStatements: false,
  });
  await named.serviceStatements(async (sql) => {
    await sql.query('create table public.prepared_notes (owner uuid not null, body text not null)');
    await sql.query('alter table public.prepared_notes enable row level security');
    await sql.query('grant select on public.prepared_notes to authenticated');
    await sql.query(
      'create policy prepared_notes_own on public.prepared_notes for select to authenticated using (owner = auth.uid())',
    );
    await sql.query(
      "insert into public.prepared_notes values ($1, 'alice''s'), ($2, 'bob''s'), ($2, 'bob''s too')",
      [alice.user_id, bob],
    );
  });
});

afterAll(async () => {
  await named?.close();
  await unnamed?.close();
  await database?.drop();
});

const NOTES = 'select body from public.prepared_notes where body <> $1 order by body';

interface Prepared extends Record<string, unknown> {
  name: string;
  executions: number;
}

/** The connection's prepared statements of `text` (pg_prepared_statements is per session). */
const preparedOf = (sql: Sql, text: string) =>
  sql.query<Prepared>(
    'select name, (generic_plans + custom_plans)::int as executions from pg_prepared_statements where statement = $1',
    [text],
  );

describe('on a direct connection', () => {
  it('names each statement after its text, prepares it once per connection and reuses it', async () => {
    for (let round = 0; round < 3; round++) {
      await named.asCaller(alice, (sql) => sql.query(NOTES, ['']));
    }
    const prepared = await named.serviceStatements((sql) => preparedOf(sql, NOTES));
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^tasklane_/);
    expect(prepared[0]?.executions).toBe(3);
  });

  it('keeps RLS per role and claims: one statement answers the service, alice and bob each their rows', async () => {
    const asBob: Principal = { ...alice, user_id: bob, email: 'bob@example.com' };
    // Past the five executions after which Postgres may settle on a generic plan.
    for (let round = 0; round < 8; round++) {
      const [service, mine, bobs] = await Promise.all([
        named.serviceStatements((sql) => sql.query(NOTES, ['-'])),
        named.asCaller(alice, (sql) => sql.query(NOTES, ['-'])),
        named.asCaller(asBob, (sql) => sql.query(NOTES, ['-'])),
      ]);
      expect(service.map((row) => row['body'])).toEqual(["alice's", "bob's", "bob's too"]);
      expect(mine.map((row) => row['body'])).toEqual(["alice's"]);
      expect(bobs.map((row) => row['body'])).toEqual(["bob's", "bob's too"]);
    }
    const [prepared] = await named.serviceStatements((sql) => preparedOf(sql, NOTES));
    expect(prepared?.executions).toBeGreaterThanOrEqual(24);
  });

  it('names statements sent outside a transaction too (the credential check, the count)', async () => {
    const text = 'select count(*)::int as n from public.prepared_notes where owner = $1';
    await named.serviceStatements((sql) => sql.query(text, [bob]));
    await named.serviceStatements((sql) => sql.query(text, [bob]));
    const [prepared] = await named.serviceStatements((sql) => preparedOf(sql, text));
    expect(prepared?.executions).toBe(2);
  });

  it('names at most MAX_NAMED_STATEMENTS texts, and sends the others unnamed', async () => {
    const bounded = createDatabase({ url: database.url, logger: logs.logger, maxConnections: 1 });
    try {
      for (let index = 0; index <= MAX_NAMED_STATEMENTS + 5; index++) {
        await bounded.serviceStatements((sql) => sql.query(`select $1::int + ${index} as n`, [1]));
      }
      const [row] = await bounded.serviceStatements((sql) =>
        sql.query<{ n: number }>(
          "select count(*)::int as n from pg_prepared_statements where statement like 'select $1::int + %'",
        ),
      );
      expect(row?.n).toBe(MAX_NAMED_STATEMENTS);
    } finally {
      await bounded.close();
    }
  });

  it('answers 503 once when a migration changed a prepared statement’s columns, then prepares it anew', async () => {
    const text = 'select * from public.prepared_changing where $1::boolean';
    await named.serviceStatements((sql) => sql.query('create table public.prepared_changing (a int)'));
    await named.serviceStatements((sql) => sql.query('insert into public.prepared_changing values (1)'));
    await named.serviceStatements((sql) => sql.query(text, [true]));
    await named.serviceStatements((sql) =>
      sql.query('alter table public.prepared_changing add column b int'),
    );

    const failure = await named
      .serviceStatements((sql) => sql.query(text, [true]))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('unavailable');
    expect((failure as AppError).headers?.['Retry-After']).toBeDefined();

    // In a transaction and outside one, the statement works again, with the new column.
    expect(await named.serviceStatements((sql) => sql.query(text, [true]))).toEqual([{ a: 1, b: null }]);
    expect(await named.serviceStatements((sql) => sql.query(text, [true]))).toEqual([{ a: 1, b: null }]);
  });
});

describe('a task search', () => {
  const NO_FILTERS: TaskFilters = {
    statuses: null,
    priorities: null,
    unassigned: false,
    assigneeIds: null,
    labelIds: null,
    text: null,
    dueBefore: null,
    dueAfter: null,
  };
  const project = '00000000-0000-4000-8000-000000000001';
  const scope = { slug: 'acme', projectKeys: null };

  it('is sent unnamed, planned for its pattern each time; the same list without one is prepared', async () => {
    const listAndCount = (filters: TaskFilters) =>
      named.asCaller(alice, (sql) =>
        Promise.all([
          selectTasks(sql, project, filters, 'position', { limit: 10 }),
          selectTaskCounts(sql, scope, filters),
        ]),
      );
    // Past the five executions after which Postgres may keep a generic plan, which a search must not get.
    for (let round = 0; round < 7; round++) await listAndCount({ ...NO_FILTERS, text: 'needle' });
    await listAndCount(NO_FILTERS);
    const prepared = await named.serviceStatements((sql) =>
      sql.query<{ searching: boolean }>(
        `select statement like '%task_ids_matching%' as searching from pg_prepared_statements
         where (statement like '%private.task_json(t,%' or statement like '%count(t.id)%')
           and statement not like '%pg_prepared_statements%'`,
      ),
    );
    expect(prepared.map((row) => row.searching)).toEqual([false, false]);
  });
});

describe('through a transaction-mode pooler (preparedStatements: false)', () => {
  it('names no statement, so no prepared statement outlives its transaction', async () => {
    const text = 'select body from public.prepared_notes where body <> $1 and body <> $2';
    for (let round = 0; round < 3; round++) {
      await unnamed.asCaller(alice, (sql) => sql.query(text, ['', '']));
      await unnamed.serviceStatements((sql) => sql.query(text, ['', '']));
    }
    const prepared = await unnamed.serviceStatements((sql) =>
      sql.query('select name, statement from pg_prepared_statements'),
    );
    expect(prepared).toEqual([]);
  });
});
