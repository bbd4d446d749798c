import { afterEach, describe, expect, test } from 'vitest';
import { onReplicationReady } from '../../web/src/lib/realtime/replication-ready.ts';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  collect,
  eventually,
  FAST_REALTIME,
  rawSocket,
  realtimeClient,
  subscribed,
  type RawSocket,
} from '../support/stand-in-realtime.ts';

const REPLICATION_READY_DELAY_MS = 1_500;
const READY = {
  extension: 'system',
  status: 'ok',
  message: 'Replication connection established',
};

describe('the stand-in Realtime service: joins before replication is ready', () => {
  const standIn = useStandIn({
    ...FAST_REALTIME,
    TASKLANE_REALTIME_REPLICATION_READY_DELAY_MS: String(REPLICATION_READY_DELAY_MS),
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const raw = async () => {
    const socket = await rawSocket(standIn.process, standIn.keys.anonKey);
    cleanups.push(() => socket.close());
    return socket;
  };
  const send = (topic: string, payload: object) =>
    standIn.withDatabase((db) =>
      db.query(`select realtime.send($2::jsonb, 'e', $1, false)`, [topic, JSON.stringify(payload)]),
    );
  const carries = (socket: RawSocket, marker: string) =>
    socket.binaryFrames.some((frame) => frame.toString('utf8').includes(marker));

  test('a replication_ready join hears "Replication connection established" after the delay; database broadcasts committed before are not delivered', async () => {
    const socket = await raw();
    const subTopic = `room:ready${Date.now()}`;
    const joinedAt = Date.now();
    socket.send([
      '1',
      '1',
      `realtime:${subTopic}`,
      'phx_join',
      { config: { broadcast: { replication_ready: true } } },
    ]);
    expect((await socket.next((frame) => frame[1] === '1'))[4]).toMatchObject({ status: 'ok' });

    await send(subTopic, { marker: 'in-the-gap' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.frames.filter((frame) => frame[3] === 'system')).toEqual([]);

    const system = await socket.next((frame) => frame[3] === 'system', REPLICATION_READY_DELAY_MS + 2_000);
    expect(Date.now() - joinedAt).toBeGreaterThanOrEqual(REPLICATION_READY_DELAY_MS - 50);
    expect(system).toEqual(['1', null, `realtime:${subTopic}`, 'system', { ...READY, channel: subTopic }]);

    await send(subTopic, { marker: 'after-ready' });
    await eventually(() => carries(socket, 'after-ready'), 3_000, 'the broadcast after readiness');
    expect(carries(socket, 'in-the-gap')).toBe(false);
  });

  test('a join without replication_ready is not told, and is not sent database broadcasts before readiness either', async () => {
    const socket = await raw();
    const subTopic = `room:quiet${Date.now()}`;
    socket.send(['1', '1', `realtime:${subTopic}`, 'phx_join', { config: {} }]);
    expect((await socket.next((frame) => frame[1] === '1'))[4]).toMatchObject({ status: 'ok' });
    await send(subTopic, { marker: 'in-the-gap' });
    await new Promise((resolve) => setTimeout(resolve, REPLICATION_READY_DELAY_MS + 300));
    await send(subTopic, { marker: 'after-ready' });
    await eventually(() => carries(socket, 'after-ready'), 3_000, 'the broadcast after readiness');
    expect(carries(socket, 'in-the-gap')).toBe(false);
    expect(socket.frames.filter((frame) => frame[3] === 'system')).toEqual([]);
  });

  test("the web app's channel catches up again when replication is ready, so a change committed in the gap is read", async () => {
    const supabase = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey);
    cleanups.push(() => supabase.removeAllChannels());
    const subTopic = `room:web${Date.now()}`;
    const channel = supabase.channel(subTopic, { config: { broadcast: { replication_ready: true } } });
    const received = collect<{ payload: { marker: string } }>(channel, '*');
    const catchUps: string[] = [];
    onReplicationReady(channel, () => catchUps.push('replication ready'));
    await subscribed(channel);
    catchUps.push('subscribed');

    // Committed between the join and readiness: the channel never carries it ...
    await send(subTopic, { marker: 'in-the-gap' });
    await eventually(() => catchUps.length === 2, REPLICATION_READY_DELAY_MS + 2_000, 'replication ready');
    // ... so the feed is read once more, after it was committed.
    expect(catchUps).toEqual(['subscribed', 'replication ready']);
    expect(received).toEqual([]);
  });
});
