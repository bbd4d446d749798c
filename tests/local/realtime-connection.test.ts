import type { RealtimeChannel } from '@supabase/supabase-js';
import { afterEach, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  collect,
  eventually,
  FAST_REALTIME,
  rawSocket,
  realtimeClient,
  refusedHandshake,
  signedToken,
  subscribe,
  subscribed,
  type RawSocket,
} from '../support/stand-in-realtime.ts';

const IDLE_TIMEOUT_MS = 1_500;

describe('the stand-in Realtime service: sockets, serializers and channels', () => {
  const standIn = useStandIn({
    ...FAST_REALTIME,
    TASKLANE_REALTIME_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const websocketUrl = (query: string) =>
    `${standIn.process.apiUrl.replace('http', 'ws')}/realtime/v1/websocket?${query}`;
  const client = (vsn = '2.0.0') => {
    const supabase = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {
      vsn,
      heartbeatIntervalMs: 500,
    });
    cleanups.push(() => supabase.removeAllChannels());
    return supabase;
  };
  const raw = async (options: { vsn?: string; origin?: string } = {}) => {
    const socket = await rawSocket(standIn.process, standIn.keys.anonKey, options);
    cleanups.push(() => socket.close());
    return socket;
  };
  const joined = async (socket: RawSocket, topic: string, ref: string, payload: object = {}) => {
    socket.send([ref, ref, topic, 'phx_join', { config: {}, ...payload }]);
    return socket.next((frame) => frame[1] === ref && frame[3] === 'phx_reply');
  };

  test('supabase-js (vsn 2.0.0, binary broadcast frames) subscribes, acks and receives its own broadcast', async () => {
    const channel = client().channel(`room:${Date.now()}`, {
      config: { broadcast: { self: true, ack: true } },
    });
    const received = collect<{ event: string; payload: unknown }>(channel, 'cursor');
    await subscribed(channel);
    expect(await channel.send({ type: 'broadcast', event: 'cursor', payload: { x: 1 } })).toBe('ok');
    await eventually(() => received.length === 1, 3_000, 'the broadcast');
    expect(received[0]).toEqual({ type: 'broadcast', event: 'cursor', payload: { x: 1 } });
  });

  test('vsn 1.0.0 and 2.0.0 clients broadcast to each other; a binary payload arrives as bytes', async () => {
    const topic = `room:${Date.now()}`;
    const v1 = client('1.0.0').channel(topic);
    const v2 = client('2.0.0').channel(topic);
    const atV1 = collect<{ payload: unknown }>(v1, 'hello');
    const atV2 = collect<{ payload: unknown }>(v2, '*');
    await subscribed(v1);
    await subscribed(v2);
    await v1.send({ type: 'broadcast', event: 'hello', payload: { from: 'v1' } });
    await v2.send({ type: 'broadcast', event: 'hello', payload: { from: 'v2' } });
    await eventually(() => atV1.length === 1 && atV2.length === 1, 3_000, 'both broadcasts');
    expect(atV1[0]?.payload).toEqual({ from: 'v2' });
    expect(atV2[0]?.payload).toEqual({ from: 'v1' });

    const bytes = new Uint8Array([1, 2, 250]).buffer;
    await v2.send({ type: 'broadcast', event: 'blob', payload: bytes });
    const socket = await raw();
    await joined(socket, `realtime:${topic}`, '1');
    await v2.send({ type: 'broadcast', event: 'blob', payload: bytes });
    await eventually(() => socket.binaryFrames.length === 1, 3_000, 'a kind-4 frame');
    const frame = socket.binaryFrames[0] as Buffer;
    expect(frame[0]).toBe(4);
    expect([...frame.subarray(frame.length - 3)]).toEqual([1, 2, 250]);
    expect(frame[4]).toBe(0); // binary encoding
  });

  test('refuses handshakes without a valid key, with the HTTP bodies of hosted Realtime', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await signedToken(standIn.process, { role: 'authenticated', exp: now - 10 });
    const roleless = await signedToken(standIn.process, { sub: 'x', exp: now + 60 });
    const wrongKey = `${standIn.keys.anonKey.slice(0, -4)}AAAA`;
    const cases: [string, string][] = [
      ['vsn=2.0.0', 'API key is missing'],
      [`apikey=${expired}&vsn=2.0.0`, 'Token has expired'],
      [`apikey=${roleless}&vsn=2.0.0`, 'Fields `role` and `exp` are required in JWT'],
      ['apikey=not-a-jwt&vsn=2.0.0', 'The token provided is not a valid JWT'],
      [`apikey=${wrongKey}&vsn=2.0.0`, 'Failed to validate JWT signature'],
    ];
    for (const [query, error] of cases) {
      expect(await refusedHandshake(websocketUrl(query))).toEqual({ status: 401, body: { error } });
    }
    const opaque = await rawSocket(standIn.process, standIn.keys.publishableKey);
    await opaque.close();
  });

  test('ignores Origin, as hosted does: a page anywhere connects and joins with a valid key, never without one', async () => {
    const elsewhere = 'https://elsewhere.example';
    const socket = await raw({ origin: elsewhere });
    expect((await joined(socket, 'realtime:room:from-elsewhere', '1'))[4]).toEqual({
      status: 'ok',
      response: { postgres_changes: [] },
    });
    // The key still decides: a private topic no policy opens stays shut to the anon key.
    expect(
      (await joined(socket, 'realtime:room:private-elsewhere', '2', { config: { private: true } }))[4],
    ).toEqual({
      status: 'error',
      response: {
        reason:
          'Unauthorized: You do not have permissions to read from this Channel topic: room:private-elsewhere',
      },
    });
    const refusals: [string, string][] = [
      ['vsn=2.0.0', 'API key is missing'],
      ['apikey=not-a-jwt&vsn=2.0.0', 'The token provided is not a valid JWT'],
      [`apikey=${standIn.keys.anonKey.slice(0, -4)}AAAA&vsn=2.0.0`, 'Failed to validate JWT signature'],
    ];
    for (const [query, error] of refusals) {
      expect(await refusedHandshake(websocketUrl(query), { origin: elsewhere })).toEqual({
        status: 401,
        body: { error },
      });
    }
  });

  test('a phx_leave of a topic never joined is answered ok, as Phoenix answers it', async () => {
    const socket = await raw();
    socket.send(['7', '8', 'realtime:room:never-joined', 'phx_leave', {}]);
    expect(await socket.next((frame) => frame[1] === '8')).toEqual([
      '7',
      '8',
      'realtime:room:never-joined',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    // Nor one left already: the second leave is answered ok, and closes nothing more.
    await joined(socket, 'realtime:room:left', '9');
    socket.send(['9', '10', 'realtime:room:left', 'phx_leave', {}]);
    await socket.next((frame) => frame[3] === 'phx_close');
    socket.send(['9', '11', 'realtime:room:left', 'phx_leave', {}]);
    expect((await socket.next((frame) => frame[1] === '11'))[4]).toEqual({ status: 'ok', response: {} });
    expect(socket.frames.filter((frame) => frame[3] === 'phx_close')).toHaveLength(1);
  });

  test('postgres_changes is refused as hosted refuses a subscription it cannot set up: a system error', async () => {
    const channel = client().channel(`room:pg${Date.now()}`);
    const system: Record<string, unknown>[] = [];
    channel
      .on('postgres_changes', { event: '*', schema: 'public', table: 'tasks' }, () => undefined)
      .on('system', {}, (payload: Record<string, unknown>) => void system.push(payload));
    // The join itself succeeds (the binding is echoed, so the client does not report a mismatch) ...
    expect(await subscribe(channel)).toEqual({ status: 'SUBSCRIBED' });
    // ... and the client is then told, on the channel, that no table change will ever come.
    await eventually(() => system.length === 1, 3_000, 'the system error');
    expect(system[0]).toEqual({
      extension: 'postgres_changes',
      status: 'error',
      message: expect.stringMatching(
        /postgres_changes is not served by the local stand-in.*database broadcasts/,
      ),
      channel: channel.subTopic,
    });
  });

  test('heartbeat, join reply with the postgres_changes echo, leave and close, unmatched topics', async () => {
    const socket = await raw();
    socket.send([null, '1', 'phoenix', 'heartbeat', {}]);
    expect(await socket.next((frame) => frame[1] === '1')).toEqual([
      null,
      '1',
      'phoenix',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);

    const binding = { event: '*', schema: 'public', table: 'tasks', filter: 'id=eq.1' };
    const reply = await joined(socket, 'realtime:room:a', '2', { config: { postgres_changes: [binding] } });
    expect(reply[4]).toEqual({
      status: 'ok',
      response: { postgres_changes: [{ ...binding, id: expect.any(Number) }] },
    });
    expect((await joined(socket, 'realtime:room:b', '3'))[4]).toEqual({
      status: 'ok',
      response: { postgres_changes: [] },
    });

    socket.send(['2', '4', 'realtime:room:a', 'phx_leave', {}]);
    expect(await socket.next((frame) => frame[1] === '4')).toEqual([
      '2',
      '4',
      'realtime:room:a',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    expect(await socket.next((frame) => frame[3] === 'phx_close')).toEqual([
      '2',
      '2',
      'realtime:room:a',
      'phx_close',
      {},
    ]);

    socket.send(['2', '5', 'realtime:room:a', 'broadcast', { type: 'broadcast', event: 'x', payload: {} }]);
    expect((await socket.next((frame) => frame[1] === '5'))[4]).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
    expect((await joined(socket, 'elsewhere', '6'))[4]).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
  });

  test('a second join of a joined topic closes the first channel, then joins anew', async () => {
    const socket = await raw();
    await joined(socket, 'realtime:room:dup', '1');
    socket.send(['2', '2', 'realtime:room:dup', 'phx_join', { config: {} }]);
    expect(await socket.next((frame) => frame[3] === 'phx_close')).toEqual([
      '1',
      '1',
      'realtime:room:dup',
      'phx_close',
      {},
    ]);
    expect((await socket.next((frame) => frame[1] === '2'))[4]).toMatchObject({ status: 'ok' });
  });

  test('refused joins: empty topic, bad access_token, and the 101st channel of a socket', async () => {
    const socket = await raw();
    expect((await joined(socket, 'realtime:', '1'))[4]).toEqual({
      status: 'error',
      response: { reason: 'TopicNameRequired: You must provide a topic name' },
    });
    const expired = await signedToken(standIn.process, {
      role: 'authenticated',
      exp: Math.floor(Date.now() / 1000) - 30,
    });
    const reply = await joined(socket, 'realtime:room:expired', '2', { access_token: expired });
    expect(reply[4]).toEqual({
      status: 'error',
      response: { reason: expect.stringMatching(/^InvalidJWTToken: Token has expired \d+ seconds ago$/) },
    });
    expect((await joined(socket, 'realtime:room:junk', '3', { access_token: 'junk' }))[4]).toEqual({
      status: 'error',
      response: { reason: 'MalformedJWT: The token provided is not a valid JWT' },
    });

    for (let n = 0; n < 100; n += 1)
      socket.send([`c${n}`, `c${n}`, `realtime:many:${n}`, 'phx_join', { config: {} }]);
    await socket.next((frame) => frame[1] === 'c99', 10_000);
    expect((await joined(socket, 'realtime:many:100', 'over'))[4]).toEqual({
      status: 'error',
      response: { reason: 'ChannelRateLimitReached: Too many channels' },
    });
  });

  test('the official client reports the reason of a refused join as CHANNEL_ERROR', async () => {
    const supabase = client();
    await supabase.realtime.setAuth('not-a-jwt');
    const result = await subscribe(supabase.channel('room:refused'));
    expect(result.status).toBe('CHANNEL_ERROR');
    expect(result.error?.message).toBe('MalformedJWT: The token provided is not a valid JWT');
  });

  test('closes a socket that stays silent past the idle timeout; the client reconnects and rejoins', async () => {
    const silent = await raw();
    const closedAt = new Promise<number>((resolve) => silent.socket.once('close', () => resolve(Date.now())));
    const openedAt = Date.now();
    expect((await closedAt) - openedAt).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 100);

    const sleepy = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {
      heartbeatIntervalMs: 60_000,
    });
    cleanups.push(() => sleepy.removeAllChannels());
    const topic = `room:${Date.now()}`;
    const statuses: string[] = [];
    const channel: RealtimeChannel = sleepy.channel(topic);
    const received = collect(channel, 'ping');
    channel.subscribe((status) => statuses.push(status));
    await eventually(() => statuses.filter((s) => s === 'SUBSCRIBED').length >= 2, 8_000, 'a rejoin');
    const sender = client().channel(topic);
    await subscribed(sender);
    await sender.send({ type: 'broadcast', event: 'ping', payload: {} });
    await eventually(() => received.length >= 1, 3_000, 'a broadcast after the rejoin');
  });
});
