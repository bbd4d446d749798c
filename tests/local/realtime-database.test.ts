import { randomUUID } from 'node:crypto';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  collect,
  eventually,
  FAST_REALTIME,
  realtimeClient,
  liveUser,
  signedToken,
  subscribed,
} from '../support/stand-in-realtime.ts';

/** This file's own policy: a topic `room:<uuid>` is readable by the user whose id is the uuid. */
const OWN_ROOM_POLICY = `
  create policy "test own room" on realtime.messages for select to authenticated
    using (realtime.topic() = 'room:' || auth.uid()::text);
`;

interface Received {
  event: string;
  payload: Record<string, unknown>;
  meta?: { id: string };
}

describe('the stand-in Realtime service: broadcast from the database with realtime.send()', () => {
  const standIn = useStandIn(FAST_REALTIME);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  beforeAll(() => standIn.withDatabase((db) => db.query(OWN_ROOM_POLICY)));

  async function listener(topic: string, options: { private?: boolean; sub?: string } = {}) {
    const sub = options.sub ?? randomUUID();
    const token = await signedToken(standIn.process, {
      ...(await liveUser(standIn.process, sub)),
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, async () => token);
    cleanups.push(() => client.removeAllChannels());
    await client.realtime.setAuth(); // before the join, which would otherwise go out with the anon key
    const channel: RealtimeChannel = client.channel(topic, { config: { private: options.private ?? false } });
    const received = collect<Received>(channel, '*');
    await subscribed(channel);
    return received;
  }

  test('a message sent in a transaction arrives after COMMIT, with meta.id, and not before', async () => {
    const user = randomUUID();
    const topic = `room:${user}`;
    const received = await listener(topic, { private: true, sub: user });
    await standIn.withDatabase(async (db) => {
      await db.query('begin');
      await db.query(`select realtime.send('{"seq": 1}'::jsonb, 'task.moved', $1, true)`, [topic]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received).toEqual([]);
      await db.query('commit');
    });
    await eventually(() => received.length === 1, 3_000, 'the committed message');
    const [message] = received;
    expect(message).toEqual({
      type: 'broadcast',
      event: 'task.moved',
      payload: { seq: 1, id: message?.meta?.id },
      meta: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });

  test('a rolled-back send never arrives; a public send reaches public subscribers only', async () => {
    const user = randomUUID();
    const topic = `room:${user}`;
    const privately = await listener(topic, { private: true, sub: user });
    const publicly = await listener(topic);
    await standIn.withDatabase(async (db) => {
      await db.query('begin');
      await db.query(`select realtime.send('{"n": "rolled back"}'::jsonb, 'e', $1, true)`, [topic]);
      await db.query('rollback');
      await db.query(`select realtime.send('{"n": "public"}'::jsonb, 'e', $1, false)`, [topic]);
      await db.query(`select realtime.send('{"n": "private"}'::jsonb, 'e', $1)`, [topic]);
    });
    await eventually(() => privately.length === 1 && publicly.length === 1, 3_000, 'both messages');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(privately.map((m) => m.payload.n)).toEqual(['private']);
    expect(publicly.map((m) => m.payload.n)).toEqual(['public']);
  });

  test('the owner of a private topic receives its message; another user cannot even join it', async () => {
    const owner = randomUUID();
    const topic = `room:${owner}`;
    const ownerHears = await listener(topic, { private: true, sub: owner });
    await standIn.withDatabase((db) => db.query(`select realtime.send('{}'::jsonb, 'e', $1)`, [topic]));
    await eventually(() => ownerHears.length === 1, 3_000, 'the owner hearing it');
    // Another user cannot even join: the join itself is refused.
    const stranger = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey);
    cleanups.push(() => stranger.removeAllChannels());
    const { status } = await new Promise<{ status: string }>((resolve) =>
      stranger
        .channel(topic, { config: { private: true } })
        .subscribe((s) => s !== 'SUBSCRIBED' && resolve({ status: s })),
    );
    expect(status).toBe('CHANNEL_ERROR');
  });

  test('messages are delivered in commit order', async () => {
    const topic = `room:order${Date.now()}`;
    const received = await listener(topic);
    await standIn.withDatabase(async (db) => {
      for (let n = 0; n < 20; n += 1) {
        await db.query(`select realtime.send(jsonb_build_object('n', $2::int), 'e', $1, false)`, [topic, n]);
      }
    });
    await eventually(() => received.length === 20, 5_000, 'twenty messages');
    expect(received.map((m) => m.payload.n)).toEqual([...Array(20).keys()]);
  });

  test('the listener reconnects when its database connection is killed', async () => {
    const topic = `room:reconnect${Date.now()}`;
    const received = await listener(topic);
    const killed = await standIn.withDatabase((db) =>
      db.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'tasklane-realtime-listener'",
      ),
    );
    expect(killed.rowCount).toBe(1);
    await eventually(
      () => standIn.process.output().includes('the database listener stopped'),
      3_000,
      'the listener noticing',
    );
    const deadline = Date.now() + 8_000;
    while (received.length === 0 && Date.now() < deadline) {
      await standIn.withDatabase((db) =>
        db.query(`select realtime.send('{}'::jsonb, 'e', $1, false)`, [topic]),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(received.length).toBeGreaterThan(0);
  });
});
