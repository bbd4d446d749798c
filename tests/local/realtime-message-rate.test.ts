import { afterEach, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  eventually,
  FAST_REALTIME,
  rawSocket,
  realtimeClient,
  subscribe,
  type RawSocket,
} from '../support/stand-in-realtime.ts';

/**
 * A project limit of 5 messages a second, counted every 200 ms: a burst of 40 is far over it. It may go over
 * before the burst is through (a counter started afresh averages over the ticks it has seen), so only some
 * of the burst need arrive.
 */
const TICK_MS = 200;
const TOO_MANY = 'Too many messages per second';

describe("the stand-in Realtime service: the project's message rate", () => {
  const standIn = useStandIn({
    ...FAST_REALTIME,
    TASKLANE_REALTIME_MAX_EVENTS_PER_SECOND: '5',
    TASKLANE_REALTIME_EVENTS_RATE_TICK_MS: String(TICK_MS),
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    // The window is 12 ticks: let this test's burst leave it before the next test counts.
    await new Promise((resolve) => setTimeout(resolve, 13 * TICK_MS));
  });

  const raw = async () => {
    const socket = await rawSocket(standIn.process, standIn.keys.anonKey);
    cleanups.push(() => socket.close());
    return socket;
  };
  const join = async (socket: RawSocket, subTopic: string, ref: string) => {
    socket.send([ref, ref, `realtime:${subTopic}`, 'phx_join', { config: {} }]);
    expect((await socket.next((frame) => frame[1] === ref && frame[3] === 'phx_reply'))[4]).toMatchObject({
      status: 'ok',
    });
  };
  const sendFromDatabase = (subTopic: string, marker: string, count: number) =>
    standIn.withDatabase((db) =>
      db.query(
        `select realtime.send(jsonb_build_object('marker', $2::text, 'n', g), 'e', $1, false)
           from generate_series(1, $3::int) g`,
        [subTopic, marker, count],
      ),
    );
  const carried = (socket: RawSocket, marker: string) =>
    socket.binaryFrames.filter((frame) => frame.toString('utf8').includes(marker)).length;

  test('over the limit, database broadcasts are dropped and a channel delivered a message is shut down with "Too many messages per second"', async () => {
    const socket = await raw();
    const subTopic = `room:rate${Date.now()}`;
    await join(socket, subTopic, '1');

    await sendFromDatabase(subTopic, 'burst', 40);
    await eventually(() => carried(socket, 'burst') > 0, 5_000, 'the burst');
    // The next tick finds the average far over 5 a second.
    await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS));

    await sendFromDatabase(subTopic, 'while-over', 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(carried(socket, 'while-over')).toBe(0);
    expect(socket.frames.filter((frame) => frame[3] === 'system')).toEqual([]);

    // A client's broadcast is still delivered: the channel it reaches is shut down, as hosted's is.
    const sender = await raw();
    await join(sender, subTopic, '7');
    sender.send([
      '7',
      '8',
      `realtime:${subTopic}`,
      'broadcast',
      { type: 'broadcast', event: 'e', payload: {} },
    ]);
    const system = await socket.next((frame) => frame[3] === 'system', 3_000);
    expect(system).toEqual([
      '1',
      null,
      `realtime:${subTopic}`,
      'system',
      { extension: 'system', status: 'error', message: TOO_MANY, channel: subTopic },
    ]);
    expect(await socket.next((frame) => frame[3] === 'phx_close', 3_000)).toEqual([
      '1',
      '1',
      `realtime:${subTopic}`,
      'phx_close',
      {},
    ]);

    // Broadcasts over HTTP are refused meanwhile.
    const response = await fetch(`${standIn.process.apiUrl}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: standIn.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: subTopic, event: 'e', payload: {} }] }),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ message: 'You have exceeded your rate limit' });
  });

  test('once the average over the window is under the limit again, a rejoined channel is delivered database broadcasts', async () => {
    const socket = await raw();
    const subTopic = `room:recover${Date.now()}`;
    await join(socket, subTopic, '1');
    await sendFromDatabase(subTopic, 'burst', 40);
    await eventually(() => carried(socket, 'burst') > 0, 5_000, 'the burst');
    await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS));
    await sendFromDatabase(subTopic, 'while-over', 1);

    // 80 counted (40 sent, 40 delivered) over 12 ticks of 200 ms: 33 a second. Quiet for the window to pass.
    await new Promise((resolve) => setTimeout(resolve, 13 * TICK_MS));
    await sendFromDatabase(subTopic, 'after', 1);
    await eventually(() => carried(socket, 'after') === 1, 3_000, 'the broadcast after the window');
    expect(carried(socket, 'while-over')).toBe(0);
  });

  test('supabase-js sees the system error and CLOSED; joining again is SUBSCRIBED', async () => {
    const supabase = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey);
    cleanups.push(() => supabase.removeAllChannels());
    const subTopic = `room:client${Date.now()}`;
    const channel = supabase.channel(subTopic, { config: { broadcast: { self: true } } });
    const systems: unknown[] = [];
    channel.on('system', {}, (message) => systems.push(message));
    const statuses: string[] = [];
    channel.subscribe((status) => statuses.push(status));
    await eventually(() => statuses.includes('SUBSCRIBED'), 3_000, 'SUBSCRIBED');

    await sendFromDatabase(subTopic, 'burst', 40);
    await new Promise((resolve) => setTimeout(resolve, 3 * TICK_MS));
    await channel.send({ type: 'broadcast', event: 'e', payload: {} });
    await eventually(() => statuses.includes('CLOSED'), 3_000, 'CLOSED');
    expect(systems).toEqual([{ extension: 'system', status: 'error', message: TOO_MANY, channel: subTopic }]);

    await supabase.removeChannel(channel);
    const again = supabase.channel(subTopic);
    expect((await subscribe(again)).status).toBe('SUBSCRIBED');
  });
});
