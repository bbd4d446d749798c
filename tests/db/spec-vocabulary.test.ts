/**
 * The database keeps its own line on the spec's vocabulary (a `check`, enum types, the board's order),
 * written in SQL; these hold each to the lists generated from openapi.yaml
 * (supabase/functions/_shared/vocabulary/spec-values.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  TASK_PRIORITIES,
  TASK_STATUSES,
  WORKSPACE_ROLES,
} from '../../supabase/functions/_shared/vocabulary/spec-values.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';

const database = useTestDatabaseClient();

/** The quoted values a table's `check` on a column admits (`status in ('a', 'b')`). */
async function checkedValues(table: string, column: string): Promise<string[]> {
  const { rows } = await database.db.query<{ definition: string }>(
    `select pg_catalog.pg_get_constraintdef(c.oid) as definition
       from pg_catalog.pg_constraint c
      where c.conrelid = $1::regclass and c.contype = 'c'
        and c.conkey = array[(select attnum from pg_catalog.pg_attribute
                               where attrelid = $1::regclass and attname = $2)]`,
    [table, column],
  );
  expect(rows, `${table}.${column} has one check`).toHaveLength(1);
  return [...(rows[0]?.definition ?? '').matchAll(/'([^']*)'::text/g)].map((match) => match[1] ?? '');
}

async function enumValues(type: string): Promise<string[]> {
  const { rows } = await database.db.query<{ value: string }>(
    `select enumlabel as value from pg_catalog.pg_enum where enumtypid = $1::regtype order by enumsortorder`,
    [type],
  );
  return rows.map((row) => row.value);
}

describe('the database agrees with the spec on its vocabulary', () => {
  it("a task's status: the check admits exactly TASK_STATUSES", async () => {
    expect((await checkedValues('public.tasks', 'status')).sort()).toEqual([...TASK_STATUSES].sort());
  });

  it('the board orders its columns by TASK_STATUSES, and ranks nothing else', async () => {
    const { rows } = await database.db.query<{ status: string; rank: number | null }>(
      `select status, private.task_status_rank(status) as rank
         from unnest($1::text[]) with ordinality as s(status, at) order by at`,
      [[...TASK_STATUSES, 'archived']],
    );
    expect(rows.map((row) => row.rank)).toEqual([...TASK_STATUSES.map((_, index) => index + 1), null]);
  });

  it("a task's priority: the enum type holds TASK_PRIORITIES, in order", async () => {
    expect(await enumValues('public.task_priority')).toEqual([...TASK_PRIORITIES]);
  });

  it('a role: the enum type holds WORKSPACE_ROLES, in order', async () => {
    expect(await enumValues('public.workspace_role')).toEqual([...WORKSPACE_ROLES]);
  });
});
