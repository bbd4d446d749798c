import { replyTo, type Channel } from './channel.ts';
import { authorizationRequest } from './authorization-request.ts';
import type { RealtimeContext } from './context.ts';
import { fanOut, payloadSize } from './fan-out.ts';
import { isRecord } from './join-payload.ts';
import type { PhoenixMessage, UserBroadcast } from './wire.ts';

/**
 * A broadcast from a joined channel (docs/supabase-protocols.md#broadcast): fanned out to the topic's other
 * subscribers (and the sender with `self`), answered when `ack`. On a private channel the first send asks the
 * write policy; a refused send is dropped without a reply, even with `ack`.
 */
export async function handleBroadcast(
  context: RealtimeContext,
  channel: Channel,
  message: PhoenixMessage,
): Promise<void> {
  const broadcast = message.userBroadcast ?? fromJson(message.payload);
  if (!broadcast) return;
  if (channel.isPrivate) {
    channel.policies.broadcastWrite ??= await context.authorizer.write(
      authorizationRequest(channel),
      'broadcast',
    );
    if (!channel.policies.broadcastWrite) return;
  }
  context.eventsRate.add();
  if (payloadSize(broadcast.payload) > context.settings.maxPayloadBytes) {
    if (channel.ack) replyTo(channel.connection, message, 'error', { reason: 'payload_size_exceeded' });
    return;
  }
  fanOut(context, channel, broadcast, channel.self ? {} : { except: channel });
  if (channel.ack) replyTo(channel.connection, message, 'ok', {});
}

/** A vsn 1.0.0 (or JSON) broadcast push: `{type: "broadcast", event, payload}`. */
function fromJson(payload: unknown): UserBroadcast | null {
  if (!isRecord(payload) || typeof payload.event !== 'string') return null;
  return { event: payload.event, payload: payload.payload ?? {}, binaryFrame: false };
}
