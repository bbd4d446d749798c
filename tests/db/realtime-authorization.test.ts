/**
 * Who may join a workspace's private channel `workspace:<id>` (the realtime work, docs/realtime.md): the
 * policies on realtime.messages, evaluated the way Realtime does
 * (docs/supabase-protocols.md#authorization-of-private-channels). Read: as the database owner insert one
 * probe row per extension, switch to the user's role, claims and `realtime.topic`, see which probes are
 * visible, roll back. Write: as the user, insert a row of the extension in a transaction that is rolled back.
 * Members of any role receive broadcasts and presence and may track presence; nobody may broadcast on the
 * topic; an aal1 session gets nothing of a workspace that requires MFA. Policies:
 * supabase/migrations/20261128100000_create_realtime_broadcasts.sql.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { CALLERS, createRlsFixture, ROLES, type Caller, type RlsFixture } from './rls-fixture.ts';

const database = useTestDatabaseClient();
let db: pg.Client;
let fixture: RlsFixture;

beforeAll(async () => {
  db = database.db;
  fixture = await createRlsFixture(db);
});

type Aal = 'aal1' | 'aal2';

const topicOf = (workspaceId: string) => `workspace:${workspaceId}`;

/** Switches the open transaction to `caller` on `topic`, with the settings Realtime's check sets. */
async function actAs(caller: Caller, topic: string | null, aal: Aal): Promise<void> {
  const claims =
    caller === 'anon'
      ? { role: 'anon' }
      : { sub: fixture.users[caller], role: 'authenticated', aal, session_id: fixture.users[caller] };
  await db.query(
    `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
       set_config('request.jwt.claim.sub', coalesce($3, ''), true),
       set_config('request.jwt.claim.role', $1, true), set_config('realtime.topic', coalesce($4, ''), true)`,
    [claims.role, JSON.stringify(claims), claims.sub ?? null, topic],
  );
}

/** The extensions `caller` may read on `topic`: Realtime's read check (join, presence state). */
async function readable(caller: Caller, topic: string | null, aal: Aal = 'aal1'): Promise<string[]> {
  await db.query('begin');
  try {
    const probes = await db.query<{ id: string }>(
      `insert into realtime.messages (topic, extension, event, private)
       values ($1, 'broadcast', 'probe', true), ($1, 'presence', 'probe', true), ($1, 'postgres_changes', 'probe', true)
       returning id`,
      [topic ?? 'no-topic'],
    );
    await actAs(caller, topic, aal);
    const seen = await db.query<{ extension: string }>(
      'select extension from realtime.messages where id = any($1::uuid[]) order by extension',
      [probes.rows.map((row) => row.id)],
    );
    return seen.rows.map((row) => row.extension);
  } finally {
    await db.query('rollback');
  }
}

/** Whether `caller` may write `extension` on `topic`: Realtime's write check (broadcast, presence track). */
async function writable(
  caller: Caller,
  topic: string,
  extension: string,
  aal: Aal = 'aal1',
): Promise<boolean> {
  await db.query('begin');
  try {
    await actAs(caller, topic, aal);
    await db.query(
      `insert into realtime.messages (topic, extension, event, private) values ($1, $2, 'probe', true)`,
      [topic, extension],
    );
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === '42501') return false;
    throw error;
  } finally {
    await db.query('rollback');
  }
}

const MEMBERS: readonly Caller[] = ROLES;
const NON_MEMBERS: readonly Caller[] = CALLERS.filter((caller) => !ROLES.includes(caller as never));

describe('reading a workspace topic (joining its private channel)', () => {
  test.each(MEMBERS)('the %s receives broadcasts and presence, nothing else', async (caller) => {
    expect(await readable(caller, topicOf(fixture.workspaceId))).toEqual(['broadcast', 'presence']);
  });

  test.each(NON_MEMBERS)('the %s receives nothing', async (caller) => {
    expect(await readable(caller, topicOf(fixture.workspaceId))).toEqual([]);
  });

  test("a member receives nothing on another workspace's topic, whose own member does", async () => {
    expect(await readable('member', topicOf(fixture.otherWorkspaceId))).toEqual([]);
    expect(await readable('outsider', topicOf(fixture.otherWorkspaceId))).toEqual(['broadcast', 'presence']);
  });

  test('other topics, a malformed one and none at all admit nobody (and raise nothing)', async () => {
    for (const topic of [`room:${fixture.workspaceId}`, 'workspace:not-a-uuid', fixture.workspaceId, null]) {
      expect(await readable('owner', topic)).toEqual([]);
    }
  });
});

describe('losing membership (what a recheck of a joined channel finds, the second security review)', () => {
  test.each(['viewer', 'member', 'admin'] as const)(
    'a %s removed from the workspace reads and tracks nothing more on its topic',
    async (role) => {
      const topic = topicOf(fixture.workspaceId);
      await db.query('begin');
      try {
        await db.query('delete from public.memberships where workspace_id = $1 and user_id = $2', [
          fixture.workspaceId,
          fixture.users[role],
        ]);
        const probes = await db.query<{ id: string }>(
          `insert into realtime.messages (topic, extension, event, private)
           values ($1, 'broadcast', 'probe', true), ($1, 'presence', 'probe', true) returning id`,
          [topic],
        );
        await actAs(role, topic, 'aal2');
        const seen = await db.query('select id from realtime.messages where id = any($1::uuid[])', [
          probes.rows.map((row) => row.id),
        ]);
        expect(seen.rows).toEqual([]);
        await expect(
          db.query(`insert into realtime.messages (topic, extension) values ($1, 'presence')`, [topic]),
        ).rejects.toMatchObject({ code: '42501' });
      } finally {
        await db.query('rollback');
      }
      // Rolled back: a member again.
      expect(await readable(role, topic)).toEqual(['broadcast', 'presence']);
    },
  );
});

describe('writing on a workspace topic', () => {
  test.each(MEMBERS)('the %s may track presence but never broadcast', async (caller) => {
    const topic = topicOf(fixture.workspaceId);
    expect(await writable(caller, topic, 'presence')).toBe(true);
    expect(await writable(caller, topic, 'broadcast')).toBe(false);
  });

  test.each(NON_MEMBERS)('the %s may do neither', async (caller) => {
    const topic = topicOf(fixture.workspaceId);
    expect(await writable(caller, topic, 'presence')).toBe(false);
    expect(await writable(caller, topic, 'broadcast')).toBe(false);
  });

  test('presence on a topic other than the one being authorized is refused', async () => {
    await db.query('begin');
    try {
      await actAs('member', topicOf(fixture.workspaceId), 'aal1');
      const attempt = db.query(`insert into realtime.messages (topic, extension) values ($1, 'presence')`, [
        topicOf(fixture.otherWorkspaceId),
      ]);
      await expect(attempt).rejects.toMatchObject({ code: '42501' });
    } finally {
      await db.query('rollback');
    }
  });
});

describe('a workspace that requires MFA', () => {
  beforeAll(async () => {
    await db.query('update public.workspaces set require_mfa = true where id = $1', [fixture.workspaceId]);
  });
  afterAll(async () => {
    await db.query('update public.workspaces set require_mfa = false where id = $1', [fixture.workspaceId]);
  });

  test('admits aal2 sessions only, to read and to track presence', async () => {
    const topic = topicOf(fixture.workspaceId);
    for (const caller of MEMBERS) {
      expect(await readable(caller, topic, 'aal1')).toEqual([]);
      expect(await readable(caller, topic, 'aal2')).toEqual(['broadcast', 'presence']);
      expect(await writable(caller, topic, 'presence', 'aal1')).toBe(false);
      expect(await writable(caller, topic, 'presence', 'aal2')).toBe(true);
    }
  });

  test("does not keep an aal1 session from its other workspaces' topics", async () => {
    await db.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'viewer')`, [
      fixture.otherWorkspaceId,
      fixture.users.member,
    ]);
    try {
      expect(await readable('member', topicOf(fixture.otherWorkspaceId), 'aal1')).toEqual([
        'broadcast',
        'presence',
      ]);
    } finally {
      await db.query('delete from public.memberships where workspace_id = $1 and user_id = $2', [
        fixture.otherWorkspaceId,
        fixture.users.member,
      ]);
    }
  });
});
