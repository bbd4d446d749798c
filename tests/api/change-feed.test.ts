/**
 * The change feed's promise (docs/product.md#api-conventions, docs/decisions/0010): a client that pages the
 * feed while others write sees every committed event exactly once, in order. Writers here are real
 * transactions on their own connections, as callers under RLS, that hold their events uncommitted for a
 * while; the reader pages through the API meanwhile. If events were numbered when appended rather than in
 * commit order (a plain sequence, or the id), a reader could move past a number whose transaction commits
 * later, and the event would be skipped for good: tests/db/events.test.ts shows that happen with ids.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import { insertProject, readFeed, type Event } from '../support/event-feed.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { ensureLiveSession, liveSessionClaims } from '../support/live-session.ts';
import { asService } from '../support/service-transaction.ts';

// The reader polls as fast as it can; rate limits are not the subject here.
const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });

const connections: pg.Client[] = [];

afterAll(async () => {
  await Promise.all(connections.map((client) => client.end()));
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  connections.push(client);
  return client;
}

/** Opens a transaction as `userId`, under RLS, with the claims the API would set for a live session. */
async function beginAs(client: pg.Client, userId: string): Promise<void> {
  await ensureLiveSession(client, userId);
  await client.query('begin');
  await client.query(
    `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
    [liveSessionClaims(userId, { api_token_id: null })],
  );
}

const insertTask = (client: pg.Client, projectId: string, userId: string, title: string) =>
  client.query(`insert into public.tasks (project_id, title, position, created_by) values ($1, $2, $3, $4)`, [
    projectId,
    title,
    `a${randomUUID()}`,
    userId,
  ]);

const titleOf = (event: Event) => (event.data as { title?: unknown }).title;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A reader of one workspace's feed, from where it stands now, as the viewer. */
async function feedReader(workspace: WorkspaceFixture) {
  const bearer = workspace.viewer.accessToken;
  let cursor = (await readFeed(api.app, bearer, workspace, '?limit=200')).next_cursor;
  const seen: Event[] = [];
  /** Reads one page after the cursor and moves the cursor on; whether more are waiting. */
  const readPage = async (limit: number) => {
    const page = await readFeed(api.app, bearer, workspace, `?limit=${limit}&after=${cursor}`);
    seen.push(...page.data);
    cursor = page.next_cursor;
    return page.has_more;
  };
  return {
    seen,
    readPage,
    catchUp: async () => {
      while (await readPage(200));
    },
  };
}

/** Resolves once the backend of `client` waits on a lock, or fails after a few seconds. */
async function blocked(client: pg.Client): Promise<void> {
  const pid = (client as unknown as { processID: number }).processID;
  const observer = await connect();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await observer.query<{ waiting: boolean }>(
      `select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`,
      [pid],
    );
    if (rows[0]?.waiting) return;
    await sleep(20);
  }
  throw new Error('the writer never waited');
}

describe('the change feed under concurrent writers', () => {
  let workspace: WorkspaceFixture;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
  });

  it('never shows an event before one that commits after it was appended', async () => {
    // Two projects, so that nothing but the event log could make one writer wait for the other.
    const [slowProject, fastProject] = [
      await insertProject(api.db, workspace),
      await insertProject(api.db, workspace),
    ];
    const reader = await feedReader(workspace);
    const [slow, fast] = [await connect(), await connect()];

    // The slow writer appends its event and keeps its transaction open.
    await beginAs(slow, workspace.member.id);
    await insertTask(slow, slowProject, workspace.member.id, 'slow');
    // The fast writer starts after it and commits as soon as it can.
    await beginAs(fast, workspace.admin.id);
    const fastCommitted = insertTask(fast, fastProject, workspace.admin.id, 'fast').then(() =>
      fast.query('commit'),
    );
    // Either it finished (and the feed would be wrong), or it waits for the slow one, as designed.
    await Promise.race([fastCommitted, blocked(fast)]);
    await reader.readPage(200);
    expect(reader.seen.map(titleOf)).toEqual([]);

    await slow.query('select pg_sleep(0.2)');
    await slow.query('commit');
    await fastCommitted;
    await reader.catchUp();

    expect(reader.seen.map(titleOf)).toEqual(['slow', 'fast']);
    const [first, second] = reader.seen.map((event) => event.seq);
    expect(second).toBe((first ?? 0) + 1);
  });

  it('shows every committed event exactly once, in commit order, to a reader paging all along', async () => {
    const writers = [workspace.owner, workspace.admin, workspace.member].map((person) => ({ person }));
    const projects = await Promise.all(writers.map(() => insertProject(api.db, workspace)));
    const reader = await feedReader(workspace);
    const committed: string[] = [];
    const rolledBack: string[] = [];
    let writing = true;

    const write = async (index: number) => {
      const client = await connect();
      const { person } = writers[index] ?? {};
      const projectId = projects[index];
      if (!person || !projectId) throw new Error('no writer');
      for (let round = 0; round < 10; round += 1) {
        const title = `w${index}-r${round}`;
        await beginAs(client, person.id);
        await client.query('select pg_sleep($1)', [Math.random() * 0.02]);
        await insertTask(client, projectId, person.id, title);
        // Holds the appended event uncommitted while the others append and the reader reads.
        await client.query('select pg_sleep($1)', [Math.random() * 0.03]);
        if (round % 4 === 3) {
          await client.query('rollback');
          rolledBack.push(title);
        } else {
          await client.query('commit');
          committed.push(title);
        }
      }
    };
    const writing$ = Promise.all(writers.map((_, index) => write(index))).finally(() => (writing = false));
    while (writing) await reader.readPage(3);
    await writing$;
    await reader.catchUp();

    const seenIds = reader.seen.map((event) => event.id);
    expect(new Set(seenIds).size, 'an event was seen twice').toBe(seenIds.length);
    const seqs = reader.seen.map((event) => event.seq);
    const start = seqs[0] ?? 0;
    expect(seqs, 'seqs in order, none skipped').toEqual(seqs.map((_, index) => start + index));
    expect(reader.seen.map(titleOf).sort()).toEqual([...committed].sort());
    expect(rolledBack.length).toBeGreaterThan(0);

    const stored = await asService(api.db, (sql) =>
      sql.query<{ id: string }>(
        'select id::text as id from public.events where workspace_id = $1 and seq >= $2 order by seq',
        [workspace.id, start],
      ),
    );
    expect(seenIds).toEqual(stored.map((row) => row.id));
  });
});
