/**
 * What the API enforces must hold for someone who skips it: on hosted Supabase the Data API (`/rest/v1`)
 * exposes `public` to any signed-in user, as role `authenticated` with their own JWT. These are the
 * attacks such a user can make, run in plain SQL as that role: reading and writing a workspace that
 * requires MFA from an aal1 session (its files in Storage too, which run their SQL as the caller), and
 * creating projects, labels and workspaces past their limits.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  LABELS_PER_WORKSPACE,
  PROJECTS_PER_WORKSPACE,
  WORKSPACES_PER_USER,
} from '../../supabase/functions/_shared/limits.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { createRlsFixture, ROLES, type RlsFixture } from './rls-fixture.ts';
import { ensureLiveSession } from '../support/live-session.ts';

type Aal = 'aal1' | 'aal2';
type Outcome = 'allowed' | 'denied';

const owner = useTestDatabaseClient();
let db: pg.Client;
let fixture: RlsFixture;

beforeAll(async () => {
  db = owner.db;
  fixture = await createRlsFixture(db);
  await db.query('update public.workspaces set require_mfa = true where id = $1', [fixture.workspaceId]);
  // The owner's ready attachment has its object in Storage.
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata) values ('attachments', $1, '{"size": 1234}')`,
    [`${fixture.workspaceId}/${fixture.taskId}/${fixture.attachmentIds.owner}`],
  );
});

/** A session's claims; an API token's have no session_id. */
const claimsOf = (userId: string, aal: Aal, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({ sub: userId, role: 'authenticated', aal, session_id: userId, ...overrides });

/** Runs `sql` as `userId` through a session at `aal`, as PostgREST would, and undoes it. */
async function attempt(
  userId: string,
  aal: Aal,
  sql: string,
  values: unknown[],
  claims: Record<string, unknown> = {},
): Promise<Outcome> {
  await db.query('begin');
  try {
    await db.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [claimsOf(userId, aal, claims)],
    );
    const result = await db.query(sql, values);
    return (result.rowCount ?? 0) > 0 ? 'allowed' : 'denied';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '42501' || code === 'P0001') return 'denied';
    throw error;
  } finally {
    await db.query('rollback');
  }
}

/** Runs `sql` as `userId` at aal1 and keeps what it did; the refusal's hint (the API's code) if refused. */
async function commitAs(userId: string, sql: string, values: unknown[]): Promise<{ refused?: string }> {
  await db.query('begin');
  try {
    await db.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [claimsOf(userId, 'aal1')],
    );
    await db.query(sql, values);
    await db.query('commit');
    return {};
  } catch (error) {
    await db.query('rollback');
    return { refused: String((error as { hint?: unknown }).hint) };
  }
}

interface Attack {
  table: string;
  attempt: string;
  statement: (f: RlsFixture, me: string) => [string, unknown[]];
}

/** Each statement is one the owner may make at aal2; at aal1 every one must come to nothing. */
const ATTACKS: readonly Attack[] = [
  {
    table: 'workspaces',
    attempt: 'read the workspace',
    statement: (f) => ['select 1 from public.workspaces where id = $1', [f.workspaceId]],
  },
  {
    table: 'workspaces',
    attempt: 'rename it',
    statement: (f) => [`update public.workspaces set name = 'Renamed' where id = $1`, [f.workspaceId]],
  },
  {
    table: 'workspaces',
    attempt: 'turn the MFA rule off',
    statement: (f) => ['update public.workspaces set require_mfa = false where id = $1', [f.workspaceId]],
  },
  {
    table: 'workspaces',
    attempt: 'delete it',
    statement: (f) => ['delete from public.workspaces where id = $1', [f.workspaceId]],
  },
  {
    table: 'memberships',
    attempt: 'read the members',
    statement: (f) => ['select 1 from public.memberships where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'memberships',
    attempt: "change a member's role",
    statement: (f) => [
      `update public.memberships set role = 'viewer' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.target],
    ],
  },
  {
    table: 'memberships',
    attempt: 'remove a member',
    statement: (f) => [
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [f.workspaceId, f.users.target],
    ],
  },
  {
    table: 'invitations',
    attempt: 'read the invitations',
    statement: (f) => ['select 1 from public.invitations where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'invitations',
    attempt: 'revoke an invitation',
    statement: (f) => [`update public.invitations set status = 'revoked' where id = $1`, [f.invitationId]],
  },
  {
    table: 'projects',
    attempt: 'read the projects',
    statement: (f) => ['select 1 from public.projects where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'projects',
    attempt: 'create a project',
    statement: (f, me) => [
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'MFA', 'MFA', $2)`,
      [f.workspaceId, me],
    ],
  },
  {
    table: 'projects',
    attempt: 'rename a project',
    statement: (f) => [`update public.projects set name = 'Renamed' where id = $1`, [f.projectId]],
  },
  {
    table: 'projects',
    attempt: 'delete a project',
    statement: (f) => ['delete from public.projects where id = $1', [f.projectId]],
  },
  {
    table: 'labels',
    attempt: 'read the labels',
    statement: (f) => ['select 1 from public.labels where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'labels',
    attempt: 'create a label',
    statement: (f, me) => [
      `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'mfa', '#000000', $2)`,
      [f.workspaceId, me],
    ],
  },
  {
    table: 'labels',
    attempt: 'recolour a label',
    statement: (f) => [`update public.labels set color = '#ffffff' where id = $1`, [f.labelId]],
  },
  {
    table: 'labels',
    attempt: 'delete a label',
    statement: (f) => ['delete from public.labels where id = $1', [f.labelId]],
  },
  {
    table: 'tasks',
    attempt: 'read the tasks',
    statement: (f) => ['select 1 from public.tasks where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'tasks',
    attempt: 'create a task',
    statement: (f, me) => [
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'MFA', 'b0', $2)`,
      [f.projectId, me],
    ],
  },
  {
    table: 'tasks',
    attempt: 'retitle a task',
    statement: (f) => [`update public.tasks set title = 'Renamed' where id = $1`, [f.taskId]],
  },
  {
    table: 'tasks',
    attempt: 'delete a task',
    statement: (f) => ['delete from public.tasks where id = $1', [f.taskId]],
  },
  {
    table: 'comments',
    attempt: 'read the comments',
    statement: (f) => ['select 1 from public.comments where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'comments',
    attempt: 'comment',
    statement: (f, me) => [
      `insert into public.comments (task_id, author_id, body) values ($1, $2, 'MFA')`,
      [f.taskId, me],
    ],
  },
  {
    table: 'comments',
    attempt: 'edit their own comment',
    statement: (f) => [`update public.comments set body = 'Edited' where id = $1`, [f.commentIds.owner]],
  },
  {
    table: 'attachments',
    attempt: 'read the attachments',
    statement: (f) => ['select 1 from public.attachments where workspace_id = $1', [f.workspaceId]],
  },
  {
    table: 'attachments',
    attempt: "read (download, sign) an attachment's object straight from Storage (storage.objects)",
    statement: (f) => [
      `select 1 from storage.objects where bucket_id = 'attachments' and name = $1`,
      [`${f.workspaceId}/${f.taskId}/${f.attachmentIds.owner}`],
    ],
  },
  {
    table: 'events',
    attempt: 'read the change feed',
    statement: (f) => ['select 1 from public.events where workspace_id = $1', [f.workspaceId]],
  },
];

describe('a workspace that requires MFA, from an aal1 session', () => {
  describe.each(ATTACKS)('$table: $attempt', (attack) => {
    test('the owner at aal2 may (the statement is sound)', async () => {
      const [sql, values] = attack.statement(fixture, fixture.users.owner);
      expect(await attempt(fixture.users.owner, 'aal2', sql, values)).toBe('allowed');
    });

    test('the owner at aal1 gets nothing and changes nothing', async () => {
      const [sql, values] = attack.statement(fixture, fixture.users.owner);
      expect(await attempt(fixture.users.owner, 'aal1', sql, values)).toBe('denied');
    });
  });

  test.each(ROLES)('a %s at aal1 sees no row of any workspace table', async (role) => {
    const me = fixture.users[role];
    const visible: string[] = [];
    for (const table of await workspaceTables()) {
      const column = table === 'workspaces' ? 'id' : 'workspace_id';
      const sql = `select 1 from public.${table} where ${column} = $1`;
      if ((await attempt(me, 'aal1', sql, [fixture.workspaceId])) === 'allowed') visible.push(table);
    }
    expect(visible).toEqual([]);
  });

  test('an aal1 session reads its own profile, and none of those it shares only such a workspace with', async () => {
    const sql = 'select 1 from public.profiles where user_id = $1';
    const { owner, member } = fixture.users;
    expect(await attempt(owner, 'aal1', sql, [member])).toBe('denied');
    expect(await attempt(owner, 'aal2', sql, [member])).toBe('allowed');
    expect(await attempt(owner, 'aal1', sql, [owner])).toBe('allowed');
  });

  test('an aal1 session still reads the workspaces that do not require MFA', async () => {
    const sql = 'select 1 from public.tasks where workspace_id = $1';
    expect(await attempt(fixture.users.outsider, 'aal1', sql, [fixture.otherWorkspaceId])).toBe('allowed');
  });

  test('only a session that proved a second factor turns the rule on (no aal1 one, no API token)', async () => {
    const { outsider } = fixture.users;
    const sql = 'update public.workspaces set require_mfa = true where id = $1';
    const values = [fixture.otherWorkspaceId];
    expect(await attempt(outsider, 'aal1', sql, values)).toBe('denied');
    expect(await attempt(outsider, 'aal2', sql, values, { session_id: null })).toBe('denied');
    expect(await attempt(outsider, 'aal2', sql, values)).toBe('allowed');
  });

  test('every workspace table in public has the restrictive MFA policy, for every command', async () => {
    const tables = await workspaceTables();
    expect(tables).toEqual(expect.arrayContaining(ATTACKS.map((a) => a.table)));
    const guarded = await db.query<{ tablename: string }>(
      `select tablename from pg_policies
       where schemaname = 'public' and permissive = 'RESTRICTIVE' and cmd = 'ALL'
         and roles = '{authenticated}' and qual like '%aal2%' and with_check like '%aal2%'
       order by tablename`,
    );
    expect(guarded.rows.map((row) => row.tablename)).toEqual(tables);
  });
});

/** The tables in public whose rows belong to a workspace: `workspaces`, and every one with workspace_id. */
async function workspaceTables(): Promise<string[]> {
  const result = await db.query<{ tablename: string }>(
    `select t.tablename from pg_tables t
     where t.schemaname = 'public'
       and (t.tablename = 'workspaces' or exists (
         select 1 from information_schema.columns c
         where c.table_schema = 'public' and c.table_name = t.tablename and c.column_name = 'workspace_id'))
     order by t.tablename`,
  );
  return result.rows.map((row) => row.tablename);
}

describe('limits, straight through the Data API', () => {
  let owner: string;
  let workspaceId: string;

  beforeAll(async () => {
    owner = randomUUID();
    await db.query(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', now(), now())`,
      [owner, `${owner}@limits.test`],
    );
    await ensureLiveSession(db, owner);
    const created = await db.query<{ id: string }>(
      `insert into public.workspaces (name, slug, created_by) values ('Limits', 'limits', $1) returning id`,
      [owner],
    );
    workspaceId = created.rows[0]?.id ?? '';
    await db.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
      workspaceId,
      owner,
    ]);
  });

  const count = async (table: 'projects' | 'labels') =>
    (
      await db.query<{ n: number }>(
        `select count(*)::int as n from public.${table} where workspace_id = $1`,
        [workspaceId],
      )
    ).rows[0]?.n;

  const insertProjects = (from: number, to: number) =>
    commitAs(
      owner,
      `insert into public.projects (workspace_id, key, name, created_by)
       select $1, 'P' || n, 'Project ' || n, $2 from generate_series($3::int, $4::int) n`,
      [workspaceId, owner, from, to],
    );

  const insertLabels = (from: number, to: number) =>
    commitAs(
      owner,
      `insert into public.labels (workspace_id, name, color, created_by)
       select $1, 'label ' || n, '#000000', $2 from generate_series($3::int, $4::int) n`,
      [workspaceId, owner, from, to],
    );

  test('the limits in SQL are those of _shared/limits.ts', async () => {
    const result = await db.query(
      `select private.max_projects_per_workspace() as projects, private.max_labels_per_workspace() as labels,
         private.max_workspaces_per_user() as workspaces`,
    );
    expect(result.rows[0]).toEqual({
      projects: PROJECTS_PER_WORKSPACE,
      labels: LABELS_PER_WORKSPACE,
      workspaces: WORKSPACES_PER_USER,
    });
  });

  test('projects: one statement past the limit is refused whole; one more after reaching it is refused', async () => {
    expect(await insertProjects(1, PROJECTS_PER_WORKSPACE + 1)).toEqual({ refused: 'limit_reached' });
    expect(await count('projects')).toBe(0);
    expect(await insertProjects(1, PROJECTS_PER_WORKSPACE)).toEqual({});
    expect(await insertProjects(PROJECTS_PER_WORKSPACE + 1, PROJECTS_PER_WORKSPACE + 1)).toEqual({
      refused: 'limit_reached',
    });
    expect(await count('projects')).toBe(PROJECTS_PER_WORKSPACE);
  });

  test('labels: one statement past the limit is refused whole; one more after reaching it is refused', async () => {
    expect(await insertLabels(1, LABELS_PER_WORKSPACE + 1)).toEqual({ refused: 'limit_reached' });
    expect(await count('labels')).toBe(0);
    expect(await insertLabels(1, LABELS_PER_WORKSPACE)).toEqual({});
    expect(await insertLabels(LABELS_PER_WORKSPACE + 1, LABELS_PER_WORKSPACE + 1)).toEqual({
      refused: 'limit_reached',
    });
    expect(await count('labels')).toBe(LABELS_PER_WORKSPACE);
  });

  test('creating a workspace takes no limit from its caller', async () => {
    const functions = await db.query<{ signature: string }>(
      `select p.oid::regprocedure::text as signature from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'private' and p.proname = 'create_workspace'`,
    );
    expect(functions.rows).toEqual([{ signature: 'private.create_workspace(text,text)' }]);
  });
});
