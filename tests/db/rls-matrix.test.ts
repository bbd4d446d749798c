/**
 * SPEC §6 as row-level security, proven in SQL: for every table in `public`, each caller (a member in each
 * role, a signed-in outsider, anon) × each command gets exactly what the spec allows. A table without
 * rules here fails the coverage test, so a new table cannot skip it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { CALLERS, createRlsFixture, probe, type Caller, type RlsFixture } from './rls-fixture.ts';

type Command = 'select' | 'insert' | 'update' | 'delete';

interface Rule {
  table: string;
  command: Command;
  /** What the probe tries, in words. */
  attempt: string;
  /** The statement and its values, given the fixture and the caller's own user id. */
  statement: (fixture: RlsFixture, me: string) => [string, unknown[]];
  allowed: readonly Caller[];
}

const MEMBERS: readonly Caller[] = ['owner', 'admin', 'member', 'viewer'];
const ADMINS: readonly Caller[] = ['owner', 'admin'];
const EDITORS: readonly Caller[] = ['owner', 'admin', 'member'];
const NOBODY: readonly Caller[] = [];

const RULES: readonly Rule[] = [
  // workspaces
  {
    table: 'workspaces',
    command: 'select',
    attempt: 'read the workspace',
    statement: (f) => ['select 1 from public.workspaces where id = $1', [f.workspaceId]],
    allowed: MEMBERS,
  },
  {
    table: 'workspaces',
    command: 'insert',
    attempt: 'insert a workspace directly (private.create_workspace is the way)',
    statement: (_, me) => [
      `insert into public.workspaces (name, slug, created_by) values ('New', 'rls-new', $1)`,
      [me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'workspaces',
    command: 'update',
    attempt: 'rename the workspace',
    statement: (f) => [`update public.workspaces set name = 'Renamed' where id = $1`, [f.workspaceId]],
    allowed: ADMINS,
  },
  {
    table: 'workspaces',
    command: 'delete',
    attempt: 'delete the workspace',
    statement: (f) => ['delete from public.workspaces where id = $1', [f.workspaceId]],
    allowed: ['owner'],
  },
  // memberships
  {
    table: 'memberships',
    command: 'select',
    attempt: "read the workspace's members",
    statement: (f) => ['select 1 from public.memberships where workspace_id = $1', [f.workspaceId]],
    allowed: MEMBERS,
  },
  {
    table: 'memberships',
    command: 'insert',
    attempt: 'join as owner without an invitation',
    statement: (f, me) => [
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`,
      [f.workspaceId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: "change a member's role",
    statement: (f) => [
      `update public.memberships set role = 'viewer' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.target],
    ],
    allowed: ADMINS,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: 'demote the only owner (admins never touch owners; the last owner stays)',
    statement: (f) => [
      `update public.memberships set role = 'admin' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.owner],
    ],
    allowed: NOBODY,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: 'make a member an owner (admins never grant owner)',
    statement: (f) => [
      `update public.memberships set role = 'owner' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.target],
    ],
    allowed: ['owner'],
  },
  {
    table: 'memberships',
    command: 'delete',
    attempt: 'remove a member',
    statement: (f) => [
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [f.workspaceId, f.users.target],
    ],
    allowed: ADMINS,
  },
  {
    table: 'memberships',
    command: 'delete',
    attempt: 'leave (the last owner cannot)',
    statement: (f, me) => [
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [f.workspaceId, me],
    ],
    allowed: ['admin', 'member', 'viewer'],
  },
  // invitations
  {
    table: 'invitations',
    command: 'select',
    attempt: "read the workspace's invitations",
    statement: (f) => ['select 1 from public.invitations where id = $1', [f.invitationId]],
    allowed: ADMINS,
  },
  {
    table: 'invitations',
    command: 'insert',
    attempt: 'invite a member',
    statement: (f, me) => [
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, 'new@rls.test', 'member', sha256('new'), $2)`,
      [f.workspaceId, me],
    ],
    allowed: ADMINS,
  },
  {
    table: 'invitations',
    command: 'insert',
    attempt: 'invite an owner',
    statement: (f, me) => [
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, 'new-owner@rls.test', 'owner', sha256('new-owner'), $2)`,
      [f.workspaceId, me],
    ],
    allowed: ['owner'],
  },
  {
    table: 'invitations',
    command: 'update',
    attempt: 'revoke an invitation',
    statement: (f) => [`update public.invitations set status = 'revoked' where id = $1`, [f.invitationId]],
    allowed: ADMINS,
  },
  {
    table: 'invitations',
    command: 'delete',
    attempt: 'delete an invitation (they are revoked, never deleted)',
    statement: (f) => ['delete from public.invitations where id = $1', [f.invitationId]],
    allowed: NOBODY,
  },
  // projects
  {
    table: 'projects',
    command: 'select',
    attempt: 'read a project',
    statement: (f) => ['select 1 from public.projects where id = $1', [f.projectId]],
    allowed: MEMBERS,
  },
  {
    table: 'projects',
    command: 'insert',
    attempt: 'create a project',
    statement: (f, me) => [
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'NEW', 'New', $2)`,
      [f.workspaceId, me],
    ],
    allowed: ADMINS,
  },
  {
    table: 'projects',
    command: 'update',
    attempt: 'rename a project',
    statement: (f) => [`update public.projects set name = 'Renamed' where id = $1`, [f.projectId]],
    allowed: ADMINS,
  },
  {
    table: 'projects',
    command: 'delete',
    attempt: 'delete a project',
    statement: (f) => ['delete from public.projects where id = $1', [f.projectId]],
    allowed: ADMINS,
  },
  // labels
  {
    table: 'labels',
    command: 'select',
    attempt: 'read a label',
    statement: (f) => ['select 1 from public.labels where id = $1', [f.labelId]],
    allowed: MEMBERS,
  },
  {
    table: 'labels',
    command: 'insert',
    attempt: 'create a label',
    statement: (f, me) => [
      `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'new', '#000000', $2)`,
      [f.workspaceId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'labels',
    command: 'update',
    attempt: 'recolour a label',
    statement: (f) => [`update public.labels set color = '#ffffff' where id = $1`, [f.labelId]],
    allowed: ADMINS,
  },
  {
    table: 'labels',
    command: 'delete',
    attempt: 'delete a label',
    statement: (f) => ['delete from public.labels where id = $1', [f.labelId]],
    allowed: ADMINS,
  },
  // profiles
  {
    table: 'profiles',
    command: 'select',
    attempt: "read a fellow member's profile",
    statement: (f) => ['select 1 from public.profiles where user_id = $1', [f.users.target]],
    allowed: MEMBERS,
  },
  {
    table: 'profiles',
    command: 'select',
    attempt: 'read my own profile',
    statement: (_, me) => ['select 1 from public.profiles where user_id = $1', [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'profiles',
    command: 'insert',
    attempt: 'insert a profile (the sign-up trigger does)',
    statement: (_, me) => [`insert into public.profiles (user_id, display_name) values ($1, 'Me')`, [me]],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'update',
    attempt: "change a fellow member's display name",
    statement: (f) => [
      `update public.profiles set display_name = 'Hacked' where user_id = $1`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'update',
    attempt: 'change my own display name',
    statement: (_, me) => [`update public.profiles set display_name = 'Me' where user_id = $1`, [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'profiles',
    command: 'delete',
    attempt: 'delete my own profile (it goes with the account)',
    statement: (_, me) => ['delete from public.profiles where user_id = $1', [me]],
    allowed: NOBODY,
  },
  // api_tokens: people see, create and revoke their own only; nobody reads a hash or deletes a row
  {
    table: 'api_tokens',
    command: 'select',
    attempt: "read a fellow member's API token",
    statement: (f) => ['select 1 from public.api_tokens where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'insert',
    attempt: 'create an API token for myself',
    statement: (_, me) => [
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'Mine', 'tl_pat_BBBB', sha256($2::bytea), 'read', now() + interval '1 day')`,
      [me, `rls-mine-${me}`],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'api_tokens',
    command: 'insert',
    attempt: 'create an API token for a fellow member',
    statement: (f) => [
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'Theirs', 'tl_pat_CCCC', sha256('rls-theirs'), 'write', now() + interval '1 day')`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'update',
    attempt: "revoke a fellow member's API token",
    statement: (f) => ['update public.api_tokens set revoked_at = now() where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'delete',
    attempt: 'delete an API token (revoking is the way)',
    statement: (f) => ['delete from public.api_tokens where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  // idempotency_keys: the API records a caller's keys as the caller; nobody touches another's
  {
    table: 'idempotency_keys',
    command: 'select',
    attempt: "read a fellow member's Idempotency-Key record",
    statement: (f) => ['select 1 from public.idempotency_keys where id = $1', [f.idempotencyKeyId]],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'insert',
    attempt: 'record an Idempotency-Key of my own',
    statement: (_, me) => [
      `insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
       values ('user:' || $1, 'mine', repeat('b', 64), '{}', now() + interval '1 day')`,
      [me],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'idempotency_keys',
    command: 'insert',
    attempt: "record an Idempotency-Key in a fellow member's key space",
    statement: (f) => [
      `insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
       values ('user:' || $1, 'theirs', repeat('c', 64), '{}', now() + interval '1 day')`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'update',
    attempt: "rewrite a fellow member's Idempotency-Key record",
    statement: (f) => [
      `update public.idempotency_keys set key = 'stolen' where id = $1`,
      [f.idempotencyKeyId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'delete',
    attempt: "delete a fellow member's Idempotency-Key record",
    statement: (f) => ['delete from public.idempotency_keys where id = $1', [f.idempotencyKeyId]],
    allowed: NOBODY,
  },
];

/** Tables whose rows belong to a workspace: none of them may show another workspace's rows. */
const WORKSPACE_TABLES = ['workspaces', 'memberships', 'invitations', 'projects', 'labels'] as const;

describe('row-level security (SPEC §6), role by role', () => {
  let database: TestDatabase;
  let db: pg.Client;
  let fixture: RlsFixture;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    fixture = await createRlsFixture(db);
  });

  afterAll(async () => {
    await db.end();
    await database.drop();
  });

  const callerId = (caller: Caller) =>
    caller === 'anon' ? '00000000-0000-0000-0000-000000000000' : fixture.users[caller];

  test('every table in public has RLS enabled', async () => {
    const result = await db.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' and not rowsecurity order by tablename`,
    );
    expect(result.rows.map((row) => row.tablename)).toEqual([]);
  });

  test('every table in public has a rule here for each command', async () => {
    const result = await db.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' order by tablename`,
    );
    const missing = result.rows.flatMap(({ tablename }) =>
      (['select', 'insert', 'update', 'delete'] as const)
        .filter((command) => !RULES.some((rule) => rule.table === tablename && rule.command === command))
        .map((command) => `${tablename} ${command}`),
    );
    expect(missing).toEqual([]);
  });

  describe.each(RULES)('$table $command: $attempt', (rule) => {
    test.each(CALLERS)('as %s', async (caller) => {
      const [sql, values] = rule.statement(fixture, callerId(caller));
      const expected = rule.allowed.includes(caller) ? 'allowed' : 'denied';
      expect(await probe(db, fixture, caller, sql, values)).toBe(expected);
    });
  });

  describe.each(WORKSPACE_TABLES)("another workspace's %s", (table) => {
    const column = table === 'workspaces' ? 'id' : 'workspace_id';
    test.each(CALLERS)('as %s', async (caller) => {
      const sql = `select 1 from public.${table} where ${column} = $1`;
      const expected = caller === 'outsider' ? 'allowed' : 'denied';
      expect(await probe(db, fixture, caller, sql, [fixture.otherWorkspaceId])).toBe(expected);
    });
  });
});
