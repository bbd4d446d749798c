import { expect, test } from 'vitest';
import type { Channel, Connection } from './channel.ts';
import type { RealtimeContext } from './context.ts';
import { EventsRate } from './events-rate.ts';
import { fanOut } from './fan-out.ts';
import { TopicHub } from './topic-hub.ts';
import type { Vsn } from './wire.ts';

/** A joined private channel whose socket keeps what it was sent. */
function subscriber(hub: TopicHub, vsn: Vsn, broadcastRead = true): unknown[] {
  const sent: unknown[] = [];
  const connection: Connection = {
    vsn,
    socketToken: '',
    headers: {},
    channels: new Map(),
    send: () => undefined,
    sendFrame: (frame) => void sent.push(frame),
  };
  hub.add({
    connection,
    topic: 'realtime:workspace:1',
    subTopic: 'workspace:1',
    isPrivate: true,
    policies: { broadcastRead, presenceRead: null, broadcastWrite: null, presenceWrite: null },
  } as Channel);
  return sent;
}

test('a broadcast is encoded once per serializer, not once per subscriber, and only readers get it', () => {
  const hub = new TopicHub();
  const [v2a, v2b, v1a, v1b, refused] = [
    subscriber(hub, '2.0.0'),
    subscriber(hub, '2.0.0'),
    subscriber(hub, '1.0.0'),
    subscriber(hub, '1.0.0'),
    subscriber(hub, '2.0.0', false),
  ];
  const broadcast = { event: 'task.moved', payload: { seq: 1 }, meta: { id: 'm' }, binaryFrame: true };
  const eventsRate = new EventsRate({ maxEventsPerSecond: 100, tickMs: 1_000 });
  fanOut({ hub, eventsRate } as RealtimeContext, { isPrivate: true, subTopic: 'workspace:1' }, broadcast);

  expect(v2a).toHaveLength(1);
  expect(Buffer.isBuffer(v2a[0])).toBe(true);
  expect(v2b[0]).toBe(v2a[0]);
  expect(typeof v1a[0]).toBe('string');
  expect(v1b[0]).toBe(v1a[0]);
  expect(refused).toEqual([]);
  // Each delivery counts against the project's message rate; the reader it skipped does not.
  expect(eventsRate.tick()).toBe(4);
});
