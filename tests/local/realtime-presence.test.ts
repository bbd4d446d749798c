import type { RealtimeChannel } from '@supabase/supabase-js';
import { afterEach, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  eventually,
  FAST_REALTIME,
  rawSocket,
  realtimeClient,
  subscribed,
  type RawSocket,
} from '../support/stand-in-realtime.ts';

describe('the stand-in Realtime service: presence', () => {
  const standIn = useStandIn(FAST_REALTIME);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const client = () => {
    const supabase = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey);
    cleanups.push(() => supabase.removeAllChannels());
    return supabase;
  };
  const presenceEvents = (channel: RealtimeChannel) => {
    const events: { event: string; key: string }[] = [];
    channel.on('presence', { event: 'join' }, ({ key }) => events.push({ event: 'join', key }));
    channel.on('presence', { event: 'leave' }, ({ key }) => events.push({ event: 'leave', key }));
    return events;
  };

  test('two clients see each other join, update and leave; a closed socket leaves too', async () => {
    const topic = `board:${Date.now()}`;
    const ada = client().channel(topic, { config: { presence: { key: 'ada' } } });
    const bob = client();
    const bobChannel = bob.channel(topic, { config: { presence: { key: 'bob' } } });
    const seenByAda = presenceEvents(ada);
    presenceEvents(bobChannel); // a presence listener makes the client join with presence enabled
    await subscribed(ada);
    expect(await ada.track({ name: 'Ada', task: null })).toBe('ok');
    await subscribed(bobChannel);
    await eventually(() => 'ada' in bobChannel.presenceState(), 3_000, 'presence_state with Ada');
    expect(bobChannel.presenceState()).toMatchObject({
      ada: [{ name: 'Ada', task: null, presence_ref: expect.any(String) }],
    });

    expect(await bobChannel.track({ name: 'Bob', task: 'T-1' })).toBe('ok');
    await eventually(
      () => seenByAda.some((e) => e.event === 'join' && e.key === 'bob'),
      3_000,
      'Bob joining',
    );
    expect(await bobChannel.track({ name: 'Bob', task: 'T-2' })).toBe('ok');
    await eventually(
      () => ada.presenceState<{ task?: string }>().bob?.[0]?.task === 'T-2',
      3_000,
      'the update',
    );
    expect(ada.presenceState().bob).toHaveLength(1);

    expect(await bobChannel.untrack()).toBe('ok');
    await eventually(() => !('bob' in ada.presenceState()), 3_000, 'Bob untracking');
    expect(await bobChannel.track({ name: 'Bob again' })).toBe('ok');
    await eventually(() => 'bob' in ada.presenceState(), 3_000, 'Bob back');
    await bob.realtime.disconnect();
    await eventually(() => !('bob' in ada.presenceState()), 3_000, 'Bob leaving with his socket');
  });

  test('the wire: presence_state after join, diffs with metas and phx_ref, a server UUID as the default key', async () => {
    const socket = await rawSocket(standIn.process, standIn.keys.anonKey);
    cleanups.push(() => socket.close());
    const topic = `realtime:board:raw${Date.now()}`;
    socket.send(['1', '1', topic, 'phx_join', { config: { presence: { key: '', enabled: true } } }]);
    await socket.next((frame) => frame[1] === '1');
    expect(await socket.next((frame) => frame[3] === 'presence_state')).toEqual([
      '1',
      null,
      topic,
      'presence_state',
      {},
    ]);
    socket.send([
      '1',
      '2',
      topic,
      'presence',
      { type: 'presence', event: 'track', payload: { name: 'raw' } },
    ]);
    expect((await socket.next((frame) => frame[1] === '2'))[4]).toEqual({ status: 'ok', response: {} });
    const diff = await socket.next((frame) => frame[3] === 'presence_diff');
    const joins = (diff[4] as { joins: Record<string, { metas: unknown[] }> }).joins;
    const [key] = Object.keys(joins);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(diff[4]).toEqual({
      joins: { [key as string]: { metas: [{ name: 'raw', phx_ref: expect.any(String) }] } },
      leaves: {},
    });

    socket.send(['1', '3', topic, 'presence', { type: 'presence', event: 'track', payload: 'not a map' }]);
    expect((await socket.next((frame) => frame[1] === '3'))[4]).toEqual({
      status: 'error',
      response: { reason: 'Presence track payload must be a map' },
    });
  });

  test('tracking on a channel joined without presence enables it and sends the state', async () => {
    const socket = await rawSocket(standIn.process, standIn.keys.anonKey);
    cleanups.push(() => socket.close());
    const topic = `realtime:board:late${Date.now()}`;
    socket.send(['1', '1', topic, 'phx_join', { config: { presence: { key: 'late', enabled: false } } }]);
    await socket.next((frame) => frame[1] === '1');
    socket.send(['1', '2', topic, 'presence', { type: 'presence', event: 'track', payload: { n: 1 } }]);
    await socket.next((frame) => frame[1] === '2');
    const state = await socket.next((frame) => frame[3] === 'presence_state');
    expect(state[4]).toEqual({ late: { metas: [{ n: 1, phx_ref: expect.any(String) }] } });
  });

  /** Hosted's limits on presence (the second security review item 5, the Realtime hosted-parity review), at their defaults. */
  describe('limits, as hosted sets them', () => {
    async function joined(topic: string, key: string): Promise<RawSocket> {
      const socket = await rawSocket(standIn.process, standIn.keys.anonKey);
      cleanups.push(() => socket.close());
      socket.send(['1', '1', topic, 'phx_join', { config: { presence: { key, enabled: true } } }]);
      await socket.next((frame) => frame[1] === '1');
      return socket;
    }
    const track = (socket: RawSocket, topic: string, ref: string, payload: unknown) =>
      socket.send(['1', ref, topic, 'presence', { type: 'presence', event: 'track', payload }]);
    const closedWith = async (socket: RawSocket, topic: string, message: string) => {
      expect((await socket.next((frame) => frame[3] === 'system'))[4]).toEqual({
        extension: 'system',
        status: 'error',
        message,
        channel: topic.slice('realtime:'.length),
      });
      expect(await socket.next((frame) => frame[3] === 'phx_close')).toEqual([
        '1',
        '1',
        topic,
        'phx_close',
        {},
      ]);
    };

    test('a sixth presence message from a client within 30 s shuts its channel down', async () => {
      const topic = `realtime:board:rate${Date.now()}`;
      const watcher = await joined(topic, 'watcher');
      const socket = await joined(topic, 'flipper');
      for (const ref of ['2', '3', '4', '5', '6']) {
        track(socket, topic, ref, { task: `T-${ref}` });
        expect((await socket.next((frame) => frame[1] === ref))[4]).toEqual({ status: 'ok', response: {} });
      }
      track(socket, topic, '7', { task: 'T-7' });
      await closedWith(socket, topic, 'Client presence rate limit exceeded');
      expect(socket.frames.some((frame) => frame[1] === '7')).toBe(false);
      // The others heard the fifth place last, and then the flipper leave.
      await watcher.next(
        (frame) => frame[3] === 'presence_diff' && JSON.stringify(frame[4]).includes('"leaves":{"flipper"'),
      );
      expect(JSON.stringify(watcher.frames)).not.toContain('T-7');
    });

    test('supabase-js: a sixth track() in a row closes the channel with hosted’s system message', async () => {
      const name = `board:js-rate${Date.now()}`;
      const channel = client().channel(name, { config: { presence: { key: 'flipper' } } });
      const system: unknown[] = [];
      channel.on('system', {}, (payload) => system.push(payload));
      const statuses: string[] = [];
      channel.subscribe((status) => statuses.push(status));
      await eventually(() => statuses.includes('SUBSCRIBED'), 3_000, 'the join');
      const tracks = ['T-1', 'T-2', 'T-3', 'T-4', 'T-5', 'T-6'].map((task) => channel.track({ task }));
      await eventually(() => statuses.includes('CLOSED'), 3_000, 'the channel closed');
      expect(system).toEqual([
        {
          extension: 'system',
          status: 'error',
          message: 'Client presence rate limit exceeded',
          channel: name,
        },
      ]);
      expect(channel.state).toBe('closed');
      expect(await Promise.all(tracks)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'timed out']);
    });

    test('a track bigger than the tenant payload limit (3,000 KB) shuts its channel down and reaches no one', async () => {
      const topic = `realtime:board:size${Date.now()}`;
      const watcher = await joined(topic, 'watcher');
      const socket = await joined(topic, 'big');
      track(socket, topic, '2', { blob: 'x'.repeat(4 * 1024 * 1024) });
      await closedWith(socket, topic, 'Track message size exceeded');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(watcher.frames.filter((frame) => frame[3] === 'presence_diff')).toEqual([]);
      // Just under the limit is fine.
      const other = await joined(topic, 'fits');
      track(other, topic, '2', { blob: 'x'.repeat(2_999_000) });
      expect((await other.next((frame) => frame[1] === '2', 10_000))[4]).toEqual({
        status: 'ok',
        response: {},
      });
    });
  });
});
