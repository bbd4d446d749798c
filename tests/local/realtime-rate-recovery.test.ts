/**
 * The web app's live sync when the project's message rate closes its channel (docs/realtime.md#the-message-rate).
 * A workspace channel of the stand-in, with a limit of 5 messages a second, is joined as the web app joins it
 * (web/src/lib/realtime/workspace-channel.ts, which needs a browser: its join, its reopening after CLOSED
 * with the web app's reopen delay, and its catch-up after every join are done the same way here), with the
 * web app's live sync behind it. A burst of changes goes over the limit, the changes after it are dropped,
 * and a message delivered meanwhile closes the channel. The channel joins again and the sync reads the feed
 * from its position: every change is applied, none twice, in order. The feed is read from public.events,
 * as the API's feed reads it, so that the test needs no function.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, test } from 'vitest';
import type { LiveChange } from '../../web/src/lib/realtime/live-event.ts';
import { parseLiveMessage } from '../../web/src/lib/realtime/live-message.ts';
import { createLiveSync, type FeedPage } from '../../web/src/lib/realtime/live-sync.ts';
import { createReopenDelay } from '../../web/src/lib/realtime/reopen-delay.ts';
import {
  onReplicationReady,
  REPLICATION_READY_CONFIG,
} from '../../web/src/lib/realtime/replication-ready.ts';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  eventually,
  FAST_REALTIME,
  liveUser,
  realtimeClient,
  signedToken,
  subscribed,
} from '../support/stand-in-realtime.ts';

/** Counted every 500 ms: the limit, once over, holds for the window of 12 ticks (6 s) after the burst. */
const TICK_MS = 500;

describe("the web app's live sync over the project's message rate", () => {
  const standIn = useStandIn({
    ...FAST_REALTIME,
    TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: '5',
    TASKLANE_REALTIME_EVENTS_RATE_TICK_MS: String(TICK_MS),
  });
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const sql = (text: string, values: unknown[] = []) => standIn.withDatabase((db) => db.query(text, values));

  async function newWorkspace(): Promise<{ id: string; ownerId: string; taskId: string }> {
    const ownerId = randomUUID();
    await sql(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', '{}', now(), now())`,
      [ownerId, `rate-${ownerId.slice(0, 8)}@example.com`],
    );
    const slug = `rate-${ownerId.slice(0, 8)}`;
    const { rows } = await sql(
      `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
      [slug, ownerId],
    );
    const id = (rows[0] as { id: string }).id;
    await sql(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
      id,
      ownerId,
    ]);
    const { rows: projects } = await sql(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'RT', 'Rate', $2) returning id`,
      [id, ownerId],
    );
    const { rows: tasks } = await sql(
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Task', 'a0', $2) returning id`,
      [(projects[0] as { id: string }).id, ownerId],
    );
    return { id, ownerId, taskId: (tasks[0] as { id: string }).id };
  }

  /** The change feed after a cursor, as `GET …/events?after=` pages it (the cursor is [1, workspace, seq]). */
  async function readAfter(workspaceId: string, cursor: string): Promise<FeedPage> {
    const [, , after] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
      number,
      string,
      number,
    ];
    const { rows } = await sql(
      `select seq::int, type from public.events where workspace_id = $1 and seq > $2 order by seq limit 10`,
      [workspaceId, after],
    );
    const events = (rows as { seq: number; type: string }[]).map((row): LiveChange => ({
      kind: 'change',
      seq: row.seq,
      type: row.type,
      project_id: null,
      task_id: null,
      resource_id: null,
      version: null,
      actor_id: null,
      fields: {},
    }));
    const last = events.at(-1)?.seq ?? after;
    const next_cursor = Buffer.from(JSON.stringify([1, workspaceId, last])).toString('base64url');
    return { events, next_cursor, has_more: events.length === 10 };
  }

  /**
   * Joins `workspace:<id>` as workspace-channel.ts does and keeps it joined: each join (and replication
   * becoming ready) calls `joined`, a CLOSED channel is removed and joined anew after the reopen delay.
   */
  function keepJoined(
    client: SupabaseClient,
    workspaceId: string,
    handlers: { message: (payload: unknown) => void; joined: () => void; status: (status: string) => void },
  ): () => Promise<unknown> {
    const reopenDelay = createReopenDelay();
    let channel: RealtimeChannel | null = null;
    let timer: NodeJS.Timeout | undefined;
    const open = async () => {
      await client.realtime.setAuth();
      const opened = client.channel(`workspace:${workspaceId}`, {
        config: { private: true, broadcast: REPLICATION_READY_CONFIG },
      });
      channel = opened;
      onReplicationReady(opened, handlers.joined);
      opened
        .on('broadcast', { event: '*' }, (message: { payload?: unknown }) =>
          handlers.message(message.payload),
        )
        .subscribe((status) => {
          if (channel !== opened) return;
          handlers.status(status);
          if (status === 'SUBSCRIBED') {
            reopenDelay.joined();
            handlers.joined();
          }
          if (status === 'CLOSED') {
            channel = null;
            timer = setTimeout(() => {
              void client.removeChannel(opened).then(open);
            }, reopenDelay.next());
          }
        });
    };
    void open();
    return async () => {
      clearTimeout(timer);
      await client.removeAllChannels();
    };
  }

  /** `times` changes, a transaction each, over one connection. */
  const retitle = (taskId: string, times: number, label: string) =>
    standIn.withDatabase(async (db) => {
      for (let time = 1; time <= times; time++) {
        await db.query(`update public.tasks set title = $2 where id = $1`, [taskId, `${label} ${time}`]);
      }
    });

  test('a channel closed for "Too many messages per second" joins again and reads the feed: every change is applied, in order, once', async () => {
    const workspace = await newWorkspace();
    const session = await liveUser(standIn.process, workspace.ownerId);
    const token = await signedToken(standIn.process, {
      ...session,
      aal: 'aal1',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 3600,
      jti: randomUUID(),
    });
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, async () => token);

    const applied: number[] = [];
    const sync = createLiveSync({
      apply: (event) => {
        if (event.kind === 'change') applied.push(event.seq);
      },
      readAfter: (cursor) => readAfter(workspace.id, cursor),
      refreshSince: async () => undefined,
      holds: () => false,
      refused: () => {
        throw new Error('the feed refused the owner');
      },
    });
    const statuses: string[] = [];
    const leave = keepJoined(client, workspace.id, {
      message: (payload) => {
        const message = parseLiveMessage(payload);
        if (message) sync.receive(message);
      },
      joined: () => void sync.joined(),
      status: (status) => statuses.push(status),
    });
    cleanups.push(() => {
      sync.stop();
      return leave();
    });
    await eventually(() => statuses.includes('SUBSCRIBED'), 5_000, 'the first join');

    // 40 changes, one message each, and the same 40 delivered: far over 5 a second at the next tick.
    await retitle(workspace.taskId, 40, 'burst');
    await new Promise((resolve) => setTimeout(resolve, 3 * TICK_MS));
    // Over the limit: these changes' messages are dropped, nobody hears of them.
    await retitle(workspace.taskId, 10, 'dropped');
    // A message delivered while over the limit closes the channel: here a broadcast from a socket of the
    // service role's (hosted refuses broadcasts over HTTP meanwhile, 429).
    const server = realtimeClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey);
    cleanups.push(() => server.removeAllChannels());
    const serverChannel = server.channel(`workspace:${workspace.id}`, { config: { private: true } });
    await subscribed(serverChannel);
    expect(await serverChannel.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('ok');
    await eventually(() => statuses.includes('CLOSED'), 3_000, 'the channel closed');
    await eventually(() => statuses.at(-1) === 'SUBSCRIBED', 5_000, 'the channel joined again');
    expect(statuses).toEqual(['SUBSCRIBED', 'CLOSED', 'SUBSCRIBED']);

    const { rows } = await sql(
      `select seq::int from public.events where workspace_id = $1 and seq >= $2 order by seq`,
      [workspace.id, applied[0] ?? 0],
    );
    const every = (rows as { seq: number }[]).map((row) => row.seq);
    expect(every).toHaveLength(50);
    await eventually(() => applied.length >= every.length, 5_000, 'every change applied');
    expect(applied).toEqual(every);
  });
});
