import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  collect,
  eventually,
  FAST_REALTIME,
  liveUser,
  realtimeClient,
  signedToken,
  subscribe,
  subscribed,
} from '../support/stand-in-realtime.ts';

/**
 * Policies of this file's own: a topic `room:<uuid>` is readable by the users listed for it in
 * rt_test.members, writable by those with `can_write`, and its presence by those with `presence`.
 */
const POLICIES = `
  create schema rt_test;
  create table rt_test.members (
    topic text not null, user_id uuid not null,
    can_read boolean not null default true, can_write boolean not null default false,
    presence boolean not null default false
  );
  grant usage on schema rt_test to authenticated;
  grant select on rt_test.members to authenticated;
  create policy "test members read" on realtime.messages for select to authenticated using (
    exists (select 1 from rt_test.members m
            where m.topic = realtime.topic() and m.user_id = auth.uid()
              and ((realtime.messages.extension = 'broadcast' and m.can_read)
                   or (realtime.messages.extension = 'presence' and m.presence))));
  create policy "test members write" on realtime.messages for insert to authenticated with check (
    exists (select 1 from rt_test.members m
            where m.topic = realtime.topic() and m.user_id = auth.uid()
              and ((realtime.messages.extension = 'broadcast' and m.can_write)
                   or (realtime.messages.extension = 'presence' and m.presence))));
`;

interface Person {
  id: string;
  client: SupabaseClient;
  /** Signs a fresh token (new `iat`/`exp`), hands it to the client and sends it on every channel. */
  refreshToken(claims?: Record<string, unknown>): Promise<void>;
}

describe('the stand-in Realtime service: private channels authorized by RLS on realtime.messages', () => {
  const standIn = useStandIn(FAST_REALTIME);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  beforeAll(() => standIn.withDatabase((db) => db.query(POLICIES)));

  const tokenFor = (id: string, claims: Record<string, unknown> = {}, lifetimeSeconds = 3600) =>
    signedToken(standIn.process, {
      sub: id,
      role: 'authenticated',
      session_id: id,
      exp: Math.floor(Date.now() / 1000) + lifetimeSeconds,
      iat: Math.floor(Date.now() / 1000),
      jti: randomUUID(),
      ...claims,
    });

  async function person(lifetimeSeconds = 3600): Promise<Person> {
    const id = randomUUID();
    await liveUser(standIn.process, id);
    let token = await tokenFor(id, {}, lifetimeSeconds);
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, async () => token);
    cleanups.push(() => client.removeAllChannels());
    await client.realtime.setAuth(); // before the join, which would otherwise go out with the anon key
    return {
      id,
      client,
      refreshToken: async (claims = {}) => {
        token = await tokenFor(id, claims);
        await client.realtime.setAuth();
      },
    };
  }

  const newTopic = () => `room:${randomUUID()}`;
  const grant = (
    topic: string,
    user: Person,
    rights: { write?: boolean; presence?: boolean; read?: boolean },
  ) =>
    standIn.withDatabase((db) =>
      db.query(
        'insert into rt_test.members (topic, user_id, can_read, can_write, presence) values ($1, $2, $3, $4, $5)',
        [topic, user.id, rights.read ?? true, rights.write ?? false, rights.presence ?? false],
      ),
    );
  const revoke = (topic: string, user: Person) =>
    standIn.withDatabase((db) =>
      db.query('delete from rt_test.members where topic = $1 and user_id = $2', [topic, user.id]),
    );
  const privateChannel = (
    user: Person,
    topic: string,
    config: Record<string, unknown> = {},
  ): RealtimeChannel => user.client.channel(topic, { config: { private: true, ...config } });

  test('a listed user joins a private channel; anyone else gets Unauthorized', async () => {
    const topic = newTopic();
    const member = await person();
    const stranger = await person();
    await grant(topic, member, {});
    expect((await subscribe(privateChannel(member, topic))).status).toBe('SUBSCRIBED');
    const refused = await subscribe(privateChannel(stranger, topic));
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error?.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
    );
  });

  test('the checks leave nothing behind in realtime.messages', async () => {
    const topic = newTopic();
    const member = await person();
    await grant(topic, member, { write: true, presence: true });
    const channel = await subscribed(privateChannel(member, topic, { presence: { enabled: true } }));
    await channel.send({ type: 'broadcast', event: 'x', payload: {} });
    expect(await channel.track({ here: true })).toBe('ok');
    const { rows } = await standIn.withDatabase((db) =>
      db.query('select count(*)::int as count from realtime.messages where topic = $1', [topic]),
    );
    expect(rows[0]).toEqual({ count: 0 });
  });

  test('private and public channels of one name never see each other', async () => {
    const topic = newTopic();
    const member = await person();
    const other = await person(); // supabase-js keeps one channel per topic name per client
    await grant(topic, member, { write: true });
    const privateOne = privateChannel(member, topic, { broadcast: { self: true, ack: true } });
    const publicOne = other.client.channel(topic, { config: { broadcast: { self: true, ack: true } } });
    const atPrivate = collect(privateOne, 'note');
    const atPublic = collect(publicOne, 'note');
    await subscribed(privateOne);
    await subscribed(publicOne);
    expect(await privateOne.send({ type: 'broadcast', event: 'note', payload: { to: 'private' } })).toBe(
      'ok',
    );
    expect(await publicOne.send({ type: 'broadcast', event: 'note', payload: { to: 'public' } })).toBe('ok');
    await eventually(() => atPrivate.length === 1 && atPublic.length === 1, 3_000, 'both notes');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(atPrivate).toMatchObject([{ payload: { to: 'private' } }]);
    expect(atPublic).toMatchObject([{ payload: { to: 'public' } }]);
  });

  test('a send the write policy refuses is dropped without a reply (ack times out); the answer is kept until a new token', async () => {
    const topic = newTopic();
    const reader = await person();
    const listener = await person();
    await grant(topic, reader, {});
    await grant(topic, listener, {});
    const readerChannel = privateChannel(reader, topic, { broadcast: { ack: true } });
    const heard = collect(privateChannel(listener, topic), 'note');
    await subscribed(readerChannel);
    await subscribed(listener.client.getChannels()[0] as RealtimeChannel);
    expect(
      await readerChannel.send({ type: 'broadcast', event: 'note', payload: { n: 1 } }, { timeout: 1_000 }),
    ).toBe('timed out');

    await standIn.withDatabase((db) =>
      db.query('update rt_test.members set can_write = true where topic = $1 and user_id = $2', [
        topic,
        reader.id,
      ]),
    );
    expect(
      await readerChannel.send({ type: 'broadcast', event: 'note', payload: { n: 2 } }, { timeout: 1_000 }),
    ).toBe('timed out');
    await reader.refreshToken();
    expect(await readerChannel.send({ type: 'broadcast', event: 'note', payload: { n: 3 } })).toBe('ok');
    await eventually(() => heard.length === 1, 3_000, 'the permitted note');
    expect(heard).toMatchObject([{ payload: { n: 3 } }]);
  });

  test('a subscriber without broadcast read (joined for presence) receives no broadcasts', async () => {
    const topic = newTopic();
    const writer = await person();
    const presenceOnly = await person();
    await grant(topic, writer, { write: true });
    await grant(topic, presenceOnly, { read: false, presence: true });
    const watching = privateChannel(presenceOnly, topic, { presence: { enabled: true } });
    const heard = collect(watching, 'note');
    await subscribed(watching);
    const writing = await subscribed(privateChannel(writer, topic, { broadcast: { ack: true, self: true } }));
    const own = collect(writing, 'note');
    expect(await writing.send({ type: 'broadcast', event: 'note', payload: {} })).toBe('ok');
    await eventually(() => own.length === 1, 3_000, 'the writer hearing itself');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([]);
  });

  test('private presence: state and diffs need presence read, track needs presence write', async () => {
    const topic = newTopic();
    const tracker = await person();
    const watcher = await person();
    const blind = await person();
    await grant(topic, tracker, { presence: true });
    await grant(topic, watcher, { presence: true });
    await grant(topic, blind, {});
    const watching = privateChannel(watcher, topic, { presence: { key: 'watcher' } });
    const joins: string[] = [];
    watching.on('presence', { event: 'join' }, ({ key }) => joins.push(key));
    await subscribed(watching);
    const blindChannel = privateChannel(blind, topic, { presence: { key: 'blind' } });
    const blindJoins: string[] = [];
    blindChannel.on('presence', { event: 'join' }, ({ key }) => blindJoins.push(key));
    await subscribed(blindChannel);

    const tracking = await subscribed(privateChannel(tracker, topic, { presence: { key: 'tracker' } }));
    expect(await tracking.track({ name: 'T' })).toBe('ok');
    expect(await blindChannel.track({ name: 'B' })).toBe('error');
    await eventually(() => joins.includes('tracker'), 3_000, 'the join of the tracker');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(joins).not.toContain('blind');
    expect(blindJoins).toEqual([]);
    expect(watching.presenceState()).toMatchObject({ tracker: [{ name: 'T' }] });
  });

  test('an access_token that loses read permission shuts the channel down with a system message', async () => {
    const topic = newTopic();
    const member = await person();
    await grant(topic, member, {});
    const channel = privateChannel(member, topic);
    const system: unknown[] = [];
    const statuses: string[] = [];
    channel.on('system', {}, (payload) => system.push(payload));
    await new Promise<void>((resolve) =>
      channel.subscribe((status) => {
        statuses.push(status);
        if (status === 'SUBSCRIBED') resolve();
      }),
    );
    await revoke(topic, member);
    await member.refreshToken();
    await eventually(() => statuses.includes('CLOSED'), 3_000, 'the channel to close');
    expect(system).toEqual([
      {
        extension: 'system',
        status: 'error',
        message: `You no longer have permission to read from this Channel topic: ${topic}`,
        channel: topic,
      },
    ]);
  });

  test('a channel whose token expires without a new one is shut down', async () => {
    const member = await person(2);
    const channel = member.client.channel(newTopic());
    const system: { message?: string }[] = [];
    const statuses: string[] = [];
    channel.on('system', {}, (payload: { message?: string }) => system.push(payload));
    channel.subscribe((status) => statuses.push(status));
    await eventually(() => statuses.includes('SUBSCRIBED'), 3_000, 'the join');
    await eventually(() => statuses.includes('CLOSED'), 5_000, 'the shutdown at expiry');
    expect(system[0]?.message).toMatch(/^Token has expired \d+ seconds ago$/);
  });

  test('a malformed access_token on a live channel shuts it down', async () => {
    const member = await person();
    const channel = member.client.channel(newTopic());
    const system: { message?: string }[] = [];
    channel.on('system', {}, (payload: { message?: string }) => system.push(payload));
    await subscribed(channel);
    await member.client.realtime.setAuth('junk');
    await eventually(() => system.length === 1, 3_000, 'the system message');
    expect(system[0]?.message).toBe('The token provided is not a valid JWT');
  });
});
