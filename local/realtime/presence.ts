import { pushTo, replyTo, type Channel } from './channel.ts';
import { authorizationRequest } from './authorization-request.ts';
import { shutDownChannel } from './channel-lifecycle.ts';
import { countPresenceMessage } from './client-presence-limit.ts';
import type { RealtimeContext } from './context.ts';
import { payloadSize } from './fan-out.ts';
import { isRecord } from './join-payload.ts';
import type { PresenceDiff } from './presence-store.ts';
import type { PhoenixMessage } from './wire.ts';

/**
 * A `presence` push: track or untrack (docs/supabase-protocols.md#presence). As hosted: each counts against
 * the client presence limit first, and one over it shuts the channel down; a track bigger than the payload
 * limit shuts it down too, before anyone hears of it.
 */
export async function handlePresence(
  context: RealtimeContext,
  channel: Channel,
  message: PhoenixMessage,
): Promise<void> {
  const limit = context.settings.clientPresenceLimit;
  const counted = countPresenceMessage(channel.presenceWindow, limit, Date.now());
  if (!counted) return shutDownChannel(context, channel, 'Client presence rate limit exceeded');
  channel.presenceWindow = counted;
  const body = isRecord(message.payload) ? message.payload : {};
  const event = typeof body.event === 'string' ? body.event.toLowerCase() : '';
  if (event === 'untrack') {
    sendDiff(context, channel, context.presence.untrack(channel));
    channel.trackedState = null;
    return replyTo(channel.connection, message, 'ok', {});
  }
  if (event !== 'track') return replyTo(channel.connection, message, 'error', {});
  if (!(await mayTrack(context, channel))) return replyTo(channel.connection, message, 'error', {});
  const state = body.payload ?? {};
  if (!isRecord(state)) {
    return replyTo(channel.connection, message, 'error', { reason: 'Presence track payload must be a map' });
  }
  if (payloadSize(state) > context.settings.maxPayloadBytes) {
    return shutDownChannel(context, channel, 'Track message size exceeded');
  }
  const enabling = !channel.presenceEnabled;
  const diff = context.presence.track(channel, state);
  channel.trackedState = state;
  replyTo(channel.connection, message, 'ok', {});
  sendDiff(context, channel, diff, enabling ? channel : undefined);
  if (enabling) {
    channel.presenceEnabled = true;
    syncPresence(context, channel);
  }
}

/** Sends `presence_state` to a channel that may read presence. */
export function syncPresence(context: RealtimeContext, channel: Channel): void {
  if (!channel.presenceEnabled || !mayReadPresence(channel)) return;
  pushTo(channel, 'presence_state', context.presence.state(channel.isPrivate, channel.subTopic));
}

/** The channel's presence leaves (it left, or its socket closed). */
export function leavePresence(context: RealtimeContext, channel: Channel): void {
  sendDiff(context, channel, context.presence.untrack(channel));
}

function sendDiff(
  context: RealtimeContext,
  from: Channel,
  diff: PresenceDiff | null,
  except?: Channel,
): void {
  if (!diff) return;
  for (const channel of context.hub.subscribers(from.isPrivate, from.subTopic)) {
    if (channel === except || !channel.presenceEnabled || !mayReadPresence(channel)) continue;
    pushTo(channel, 'presence_diff', diff);
  }
}

function mayReadPresence(channel: Channel): boolean {
  return !channel.isPrivate || channel.policies.presenceRead === true;
}

/** Private channels need presence write (INSERT, extension presence); read is asked too if it was not. */
async function mayTrack(context: RealtimeContext, channel: Channel): Promise<boolean> {
  if (!channel.isPrivate) return true;
  const request = authorizationRequest(channel);
  if (channel.policies.presenceRead === null) {
    const readable = await context.authorizer.read(request, ['presence']);
    channel.policies.presenceRead = readable.has('presence');
  }
  channel.policies.presenceWrite ??= await context.authorizer.write(request, 'presence');
  return channel.policies.presenceWrite;
}
