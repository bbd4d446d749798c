import type { Channel } from './channel.ts';
import { shutDownChannel } from './channel-lifecycle.ts';
import type { RealtimeContext } from './context.ts';
import { TOO_MANY_MESSAGES } from './events-rate.ts';
import { encodeBroadcast, type UserBroadcast } from './wire.ts';

/**
 * Delivers a broadcast to the subscribers of a topic in one namespace; a private channel's subscriber
 * receives it only with broadcast read permission (docs/supabase-protocols.md#broadcast). The frame is
 * encoded once per serializer (and wire topic), not once per subscriber. A broadcast from the database
 * reaches only channels whose replication is ready. Each delivery counts against the project's message rate;
 * a channel delivered a message while the rate is over its limit is shut down after it, as hosted's channel
 * process is when it counts the message its socket was already sent.
 */
export function fanOut(
  context: RealtimeContext,
  target: { isPrivate: boolean; subTopic: string },
  broadcast: UserBroadcast,
  options: { except?: Channel; fromDatabase?: boolean } = {},
): void {
  const frames = new Map<string, string | Buffer | null>();
  for (const channel of context.hub.subscribers(target.isPrivate, target.subTopic)) {
    if (channel === options.except) continue;
    if (options.fromDatabase && !channel.replicationReady) continue;
    if (channel.isPrivate && !channel.policies.broadcastRead) continue;
    const { vsn } = channel.connection;
    const key = `${vsn} ${channel.topic}`;
    if (!frames.has(key)) frames.set(key, encodeBroadcast(vsn, channel.topic, broadcast));
    channel.connection.sendFrame(frames.get(key) ?? null);
    context.eventsRate.add();
    if (context.eventsRate.triggered) shutDownChannel(context, channel, TOO_MANY_MESSAGES);
  }
}

/** The size of a broadcast's payload, as the tenant's max_payload_size_in_kb counts it. */
export function payloadSize(payload: unknown): number {
  return Buffer.isBuffer(payload) ? payload.length : Buffer.byteLength(JSON.stringify(payload) ?? '');
}
