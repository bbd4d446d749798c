/**
 * The event log in SQL (supabase/migrations/…_create_events.sql, …_schedule_housekeeping.sql): events
 * numbered per workspace in commit order (docs/decisions/0010) — and why ids could not be the cursor —,
 * who acted, what is not an event, that nobody forges one, and the 30-day retention with its schedule.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { ensureLiveSession } from '../support/live-session.ts';

let database: TestDatabase;
/** The database owner, as migrations and the stand-in's housekeeping run. */
let owner: pg.Client;
const opened: pg.Client[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  owner = await connect();
});

afterAll(async () => {
  await Promise.all(opened.map((client) => client.end()));
  await database.drop();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  opened.push(client);
  return client;
}

type Claims = Record<string, string | null>;

// A session's claims name it; an API token's name the token instead (tests/support/live-session.ts).
const claimsOf = (userId: string, apiTokenId: string | null = null): Claims => ({
  sub: userId,
  role: 'authenticated',
  aal: 'aal1',
  session_id: apiTokenId === null ? userId : null,
  api_token_id: apiTokenId,
});

/** Opens a transaction as the caller the claims name, as the API does for each request. */
async function beginAs(client: pg.Client, claims: Claims): Promise<void> {
  await client.query('begin');
  await client.query(
    `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
    [JSON.stringify(claims)],
  );
}

async function newUser(displayName = 'Ada'): Promise<string> {
  const id = randomUUID();
  await owner.query(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
     values ($1, $2, 'authenticated', 'authenticated', $3, now(), now())`,
    [id, `${id}@events.test`, { display_name: displayName }],
  );
  await ensureLiveSession(owner, id);
  return id;
}

/** A workspace with an owner and a member, made as the database owner (no actor). */
async function newWorkspace(): Promise<{ id: string; ownerId: string; memberId: string }> {
  const [ownerId, memberId] = [await newUser('Owner'), await newUser('Member')];
  const slug = `ev-${randomUUID().slice(0, 8)}`;
  const { rows } = await owner.query<{ id: string }>(
    `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
    [slug, ownerId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('no workspace');
  await owner.query(
    `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`,
    [id, ownerId, memberId],
  );
  return { id, ownerId, memberId };
}

const insertLabel = (client: pg.Client, workspaceId: string, userId: string, name: string) =>
  client.query(
    `insert into public.labels (workspace_id, name, color, created_by) values ($1, $2, '#000000', $3)`,
    [workspaceId, name, userId],
  );

interface EventRow {
  id: string;
  seq: string;
  type: string;
  actor_id: string | null;
  actor_api_token_id: string | null;
  data: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
}

async function eventsOf(workspaceId: string): Promise<EventRow[]> {
  const { rows } = await owner.query<EventRow>(
    `select id::text, seq::text, type, actor_id, actor_api_token_id, data, previous_attributes
     from public.events where workspace_id = $1 order by seq`,
    [workspaceId],
  );
  return rows;
}

/** Resolves once `pid` waits on a lock (its statement is blocked), or fails after a few seconds. */
async function waitUntilBlocked(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { rows } = await owner.query<{ waiting: boolean }>(
      `select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`,
      [pid],
    );
    if (rows[0]?.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`backend ${pid} never waited on a lock`);
}

const pidOf = (client: pg.Client) => (client as unknown as { processID: number }).processID;

describe('numbering events in commit order', () => {
  test('a second writer in the workspace gets its number only once the first has committed', async () => {
    const workspace = await newWorkspace();
    const [first, second] = [await connect(), await connect()];
    await beginAs(first, claimsOf(workspace.ownerId));
    await insertLabel(first, workspace.id, workspace.ownerId, 'first');
    await beginAs(second, claimsOf(workspace.memberId));
    const secondAppend = insertLabel(second, workspace.id, workspace.memberId, 'second');

    await waitUntilBlocked(pidOf(second));
    await first.query('commit');
    await secondAppend;
    await second.query('commit');

    const labels = (await eventsOf(workspace.id)).filter((event) => event.type === 'label.created');
    expect(labels.map((event) => event.data.name)).toEqual(['first', 'second']);
    const [a, b] = labels.map((event) => Number(event.seq));
    expect(b).toBe((a ?? 0) + 1);
  });

  test('writers in different workspaces do not wait for each other', async () => {
    const [one, other] = [await newWorkspace(), await newWorkspace()];
    const [first, second] = [await connect(), await connect()];
    await beginAs(first, claimsOf(one.ownerId));
    await insertLabel(first, one.id, one.ownerId, 'held');
    await beginAs(second, claimsOf(other.ownerId));
    await insertLabel(second, other.id, other.ownerId, 'free');
    await second.query('commit');
    await first.query('commit');
    expect((await eventsOf(other.id)).at(-1)?.data.name).toBe('free');
  });

  test('a rolled-back change leaves no event and no gap: seqs stay 1, 2, 3, …', async () => {
    const workspace = await newWorkspace();
    const writer = await connect();
    await beginAs(writer, claimsOf(workspace.ownerId));
    await insertLabel(writer, workspace.id, workspace.ownerId, 'undone');
    await writer.query('rollback');
    await beginAs(writer, claimsOf(workspace.ownerId));
    await insertLabel(writer, workspace.id, workspace.ownerId, 'kept');
    await writer.query('commit');

    const events = await eventsOf(workspace.id);
    expect(events.map((event) => Number(event.seq))).toEqual(events.map((_, index) => index + 1));
    expect(events.some((event) => event.data.name === 'undone')).toBe(false);
  });

  test('why the feed does not page by id: ids are handed out at insert, and commit in another order', async () => {
    const [one, other] = [await newWorkspace(), await newWorkspace()];
    const [slow, fast] = [await connect(), await connect()];
    await beginAs(slow, claimsOf(one.ownerId));
    await insertLabel(slow, one.id, one.ownerId, 'slow');
    await beginAs(fast, claimsOf(other.ownerId));
    await insertLabel(fast, other.id, other.ownerId, 'fast');
    await fast.query('commit');

    // A reader paging every event by id reads up to the fast writer's event…
    const { rows } = await owner.query<{ last: string }>('select max(id)::text as last from public.events');
    const cursor = rows[0]?.last;
    await slow.query('commit');
    // …and the slow writer's event, committed after, sits below that cursor: paging by id skips it.
    const slowEvent = (await eventsOf(one.id)).at(-1);
    expect(slowEvent?.data.name).toBe('slow');
    expect(BigInt(slowEvent?.id ?? 0)).toBeLessThan(BigInt(cursor ?? 0));
    const after = await owner.query('select 1 from public.events where id > $1 and id = $2', [
      cursor,
      slowEvent?.id,
    ]);
    expect(after.rowCount).toBe(0);
  });
});

describe('what an event records', () => {
  test('the acting user, and the API token they acted through', async () => {
    const workspace = await newWorkspace();
    const tokenId = randomUUID();
    await owner.query(
      `insert into public.api_tokens (id, user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, $2, 'CI', 'tl_pat_abcd', sha256(convert_to($3, 'UTF8')), 'write', now() + interval '1 day')`,
      [tokenId, workspace.memberId, tokenId],
    );
    const writer = await connect();
    await beginAs(writer, claimsOf(workspace.memberId, tokenId));
    await insertLabel(writer, workspace.id, workspace.memberId, 'through a token');
    await writer.query('commit');
    await beginAs(writer, claimsOf(workspace.memberId));
    await insertLabel(writer, workspace.id, workspace.memberId, 'in a session');
    await writer.query('commit');

    const events = (await eventsOf(workspace.id)).filter((event) => event.type === 'label.created');
    expect(events.map(({ actor_id, actor_api_token_id }) => ({ actor_id, actor_api_token_id }))).toEqual([
      { actor_id: workspace.memberId, actor_api_token_id: tokenId },
      { actor_id: workspace.memberId, actor_api_token_id: null },
    ]);
  });

  test('changes made without a caller are the system’s', async () => {
    const workspace = await newWorkspace();
    const events = await eventsOf(workspace.id);
    expect(events.map((event) => [event.type, event.actor_id])).toEqual([
      ['member.added', null],
      ['member.added', null],
    ]);
  });

  test('member events name people without their e-mail addresses', async () => {
    const workspace = await newWorkspace();
    await owner.query(
      `update public.memberships set role = 'viewer' where workspace_id = $1 and user_id = $2`,
      [workspace.id, workspace.memberId],
    );
    const updated = (await eventsOf(workspace.id)).at(-1);
    expect(updated).toMatchObject({
      type: 'member.updated',
      data: { object: 'member', user_id: workspace.memberId, role: 'viewer', display_name: 'Member' },
      previous_attributes: { role: 'member' },
    });
    expect(JSON.stringify(await eventsOf(workspace.id))).not.toContain('@events.test');
  });

  test('an update that writes the same values is no event', async () => {
    const workspace = await newWorkspace();
    await insertLabel(owner, workspace.id, workspace.ownerId, 'same');
    const before = await eventsOf(workspace.id);
    await owner.query(`update public.labels set color = color, name = name where workspace_id = $1`, [
      workspace.id,
    ]);
    await owner.query(`update public.memberships set role = role where workspace_id = $1`, [workspace.id]);
    expect(await eventsOf(workspace.id)).toEqual(before);
  });
});

describe('one trigger function logs every change', () => {
  // Attachments are the exception: their events follow their status (added when an upload is completed,
  // not when the row is inserted), so they have a logger of their own, which appends through
  // private.append_event as log_change does.
  test('tasks, projects, labels, memberships and comments append their events through private.log_change; attachments through private.log_attachment_change', async () => {
    const { rows } = await owner.query<{ table: string; function: string; args: string }>(
      `select c.relname as table, p.proname as function, encode(t.tgargs, 'escape') as args
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       join pg_proc p on p.oid = t.tgfoid
       where c.relnamespace = 'public'::regnamespace and t.tgname like '%\\_log\\_change'
       order by c.relname`,
    );
    expect(rows).toEqual([
      { table: 'attachments', function: 'log_attachment_change', args: '' },
      { table: 'comments', function: 'log_change', args: 'comment\\000created\\000deleted\\000' },
      { table: 'labels', function: 'log_change', args: 'label\\000created\\000deleted\\000' },
      { table: 'memberships', function: 'log_change', args: 'member\\000added\\000removed\\000' },
      { table: 'projects', function: 'log_change', args: 'project\\000created\\000deleted\\000' },
      { table: 'tasks', function: 'log_change', args: 'task\\000created\\000deleted\\000' },
    ]);
    const { rows: loggers } = await owner.query<{ proname: string }>(
      `select proname from pg_proc where pronamespace = 'private'::regnamespace and proname like 'log\\_%'`,
    );
    expect(loggers.map((logger) => logger.proname).sort()).toEqual(['log_attachment_change', 'log_change']);
  });
});

describe('nobody writes events but the triggers', () => {
  test('a signed-in caller cannot append, nor delete the expired', async () => {
    const workspace = await newWorkspace();
    const caller = await connect();
    for (const statement of [
      `select private.append_event($1::uuid, null, null, 'task.deleted', '{}'::jsonb)`,
      'select private.delete_expired_events(0)',
      'select * from private.delete_expired_rows()',
    ]) {
      await beginAs(caller, claimsOf(workspace.ownerId));
      const refusal = await caller.query(statement, statement.includes('$1') ? [workspace.id] : []).then(
        () => undefined,
        (error: unknown) => (error as { code?: string }).code,
      );
      await caller.query('rollback');
      expect(refusal, statement).toBe('42501');
    }
    expect((await eventsOf(workspace.id)).map((event) => event.type)).toEqual([
      'member.added',
      'member.added',
    ]);
  });
});

describe('housekeeping', () => {
  test('deletes events older than 30 days, expired idempotency records and stale rate-limit counters', async () => {
    const workspace = await newWorkspace();
    const [expired, kept] = (await eventsOf(workspace.id)).map((event) => event.id);
    await owner.query(
      `update public.events set created_at = now() - interval '30 days 1 minute' where id = $1`,
      [expired],
    );
    await owner.query(
      `update public.events set created_at = now() - interval '29 days 23 hours' where id = $1`,
      [kept],
    );
    await owner.query(
      `insert into public.idempotency_keys (user_id, principal, key, request_hash, response, created_at, expires_at)
       values ($1::uuid, 'user:' || $1::text, 'old', repeat('a', 64), '{}', now() - interval '2 days', now() - interval '1 day'),
              ($1::uuid, 'user:' || $1::text, 'live', repeat('b', 64), '{}', now(), now() + interval '1 day')`,
      [workspace.ownerId],
    );
    await owner.query(
      `insert into private.rate_limit_counters (bucket, window_started_at, hits)
       values ('user:stale', now() - interval '2 hours', 3), ('user:live', now(), 1)`,
    );

    const { rows } = await owner.query<{ kind: string; deleted: string }>(
      'select kind, deleted::text from private.delete_expired_rows() order by kind',
    );

    expect(rows.find((row) => row.kind === 'events')?.deleted).not.toBe('0');
    expect(rows.map((row) => row.kind)).toEqual([
      'deleted_tasks',
      'events',
      'idempotency_keys',
      'rate_limit_counters',
    ]);
    expect((await eventsOf(workspace.id)).map((event) => event.id)).toEqual([kept]);
    const keys = await owner.query('select key from public.idempotency_keys where user_id = $1', [
      workspace.ownerId,
    ]);
    expect(keys.rows).toEqual([{ key: 'live' }]);
    const counters = await owner.query(
      `select bucket from private.rate_limit_counters where bucket in ('user:stale', 'user:live')`,
    );
    expect(counters.rows).toEqual([{ bucket: 'user:live' }]);
  });

  test('is scheduled hourly with pg_cron where pg_cron is installed, and only there', async () => {
    // The test database, like the stand-in's, has no pg_cron: nothing to schedule.
    const without = await owner.query<{ scheduled: boolean }>(
      'select private.schedule_housekeeping() as scheduled',
    );
    expect(without.rows).toEqual([{ scheduled: false }]);

    // pg_cron's interface, as far as the migration uses it.
    await owner.query(`create schema cron`);
    await owner.query(`create table cron.job (jobname text primary key, schedule text, command text)`);
    await owner.query(`
      create function cron.schedule(job_name text, schedule text, command text) returns bigint
      language sql as $$
        insert into cron.job values (job_name, schedule, command)
          on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command;
        select 1::bigint;
      $$`);
    try {
      const withCron = await owner.query('select private.schedule_housekeeping() as scheduled');
      expect(withCron.rows).toEqual([{ scheduled: true }]);
      const jobs = await owner.query<{ jobname: string; schedule: string; command: string }>(
        'select * from cron.job',
      );
      expect(jobs.rows).toEqual([
        {
          jobname: 'tasklane-housekeeping',
          schedule: '17 * * * *',
          command: 'select private.delete_expired_rows()',
        },
      ]);
      // The job's command runs as written.
      await owner.query(jobs.rows[0]?.command ?? '');
    } finally {
      await owner.query('drop schema cron cascade');
    }
  });
});
