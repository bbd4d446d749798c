import { randomUUID } from 'node:crypto';
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

/** This file's own policies: `room:<uuid>` is readable and writable by the user whose id is the uuid. */
const OWN_ROOM_POLICIES = `
  create policy "test own room read" on realtime.messages for select to authenticated
    using (realtime.topic() = 'room:' || auth.uid()::text);
  create policy "test own room write" on realtime.messages for insert to authenticated
    with check (realtime.topic() = 'room:' || auth.uid()::text);
`;

describe('the stand-in Realtime service: the HTTP broadcast endpoints', () => {
  const standIn = useStandIn(FAST_REALTIME);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  beforeAll(() => standIn.withDatabase((db) => db.query(OWN_ROOM_POLICIES)));

  const userToken = async (sub: string) =>
    signedToken(standIn.process, {
      ...(await liveUser(standIn.process, sub)),
      exp: Math.floor(Date.now() / 1000) + 600,
    });
  const post = (path: string, init: { token?: string; body: unknown; apikey?: string; origin?: string }) =>
    fetch(`${standIn.process.apiUrl}/realtime/v1${path}`, {
      method: 'POST',
      headers: {
        apikey: init.apikey ?? standIn.keys.anonKey,
        ...(init.origin ? { origin: init.origin } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        'content-type': 'application/json',
      },
      body: JSON.stringify(init.body),
    });
  async function subscriber(topic: string, options: { private?: boolean; sub?: string } = {}) {
    const token = await userToken(options.sub ?? randomUUID());
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, async () => token);
    cleanups.push(() => client.removeAllChannels());
    await client.realtime.setAuth();
    const channel = client.channel(topic, { config: { private: options.private ?? false } });
    const received = collect<{ event: string; payload: unknown; meta?: unknown }>(channel, '*');
    await subscribed(channel);
    return { client, channel, received };
  }

  test('batch: 202, public messages fanned out (with meta.id when given), query string tolerated', async () => {
    const topic = `room:http${Date.now()}`;
    const { received } = await subscriber(topic);
    const response = await post(`/api/broadcast?apikey=${standIn.keys.anonKey}&vsn=2.0.0`, {
      body: {
        messages: [
          { topic, event: 'a', payload: { n: 1 }, private: false },
          { topic, event: 'b', payload: { n: 2 }, id: 'm-2' },
        ],
      },
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    await eventually(() => received.length === 2, 3_000, 'two messages');
    expect(received).toEqual([
      { type: 'broadcast', event: 'a', payload: { n: 1 } },
      { type: 'broadcast', event: 'b', payload: { n: 2 }, meta: { id: 'm-2' } },
    ]);
  });

  test('private messages need the write policy: dropped silently (still 202) otherwise; service_role passes', async () => {
    const owner = randomUUID();
    const topic = `room:${owner}`;
    const { received } = await subscriber(topic, { private: true, sub: owner });
    const message = (n: number) => ({ messages: [{ topic, event: 'e', payload: { n }, private: true }] });
    expect(
      (await post('/api/broadcast', { token: await userToken(randomUUID()), body: message(1) })).status,
    ).toBe(202);
    expect((await post('/api/broadcast', { body: message(2) })).status).toBe(202);
    expect((await post('/api/broadcast', { token: await userToken(owner), body: message(3) })).status).toBe(
      202,
    );
    expect((await post('/api/broadcast', { apikey: standIn.keys.secretKey, body: message(4) })).status).toBe(
      202,
    );
    await eventually(() => received.length === 2, 3_000, 'the two permitted messages');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.map((m) => m.payload)).toEqual([{ n: 3 }, { n: 4 }]);
  });

  test('401 without a valid token, 422 for an invalid batch', async () => {
    const body = { messages: [{ topic: 't', event: 'e', payload: {} }] };
    expect(await (await post('/api/broadcast', { apikey: 'not-a-jwt', body })).json()).toEqual({
      message: 'Unauthorized',
    });
    expect((await post('/api/broadcast', { apikey: 'not-a-jwt', body })).status).toBe(401);
    for (const invalid of [
      {},
      { messages: [{ event: 'e', payload: {} }] },
      { messages: [{ topic: 't', payload: {} }] },
    ]) {
      expect((await post('/api/broadcast', { body: invalid })).status).toBe(422);
    }
  });

  test('Origin is not looked at, as hosted does not: a page anywhere sends with a valid key, never without one', async () => {
    const topic = `room:origin${Date.now()}`;
    const { received } = await subscriber(topic);
    const origin = 'https://elsewhere.example';
    const body = { messages: [{ topic, event: 'e', payload: { from: 'elsewhere' } }] };
    const sent = await post('/api/broadcast', { origin, body });
    expect(sent.status).toBe(202);
    expect(sent.headers.get('access-control-allow-origin')).toBe('*');
    await eventually(() => received.length === 1, 3_000, 'the message from another origin');
    expect(received[0]?.payload).toEqual({ from: 'elsewhere' });
    const refused = await post('/api/broadcast', { origin, apikey: 'not-a-jwt', body });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Unauthorized' });
  });

  test('single: channel.httpSend() reaches subscribers, privately too', async () => {
    const owner = randomUUID();
    const topic = `room:${owner}`;
    const listening = await subscriber(topic, { private: true, sub: owner });
    const sending = await subscriber(topic, { private: true, sub: owner });
    expect(await sending.channel.httpSend('ping', { at: 1 })).toEqual({ success: true });
    await eventually(() => listening.received.length === 1, 3_000, 'the http message');
    expect(listening.received[0]).toEqual({ type: 'broadcast', event: 'ping', payload: { at: 1 } });
  });
});
