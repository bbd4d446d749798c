import { pushTo, sendLifecycle, type Channel } from './channel.ts';
import type { RealtimeContext } from './context.ts';
import { leavePresence } from './presence.ts';

/** Ends a channel on the server: it leaves its topic, its presence leaves, its timers stop. */
export function removeChannel(context: RealtimeContext, channel: Channel): void {
  clearTimeout(channel.tokenTimer);
  clearTimeout(channel.replicationTimer);
  context.hub.remove(channel);
  leavePresence(context, channel);
  const { channels } = channel.connection;
  if (channels.get(channel.topic) === channel) channels.delete(channel.topic);
}

/** Closes a channel with phx_close (after a leave, or when a second join of its topic replaces it). */
export function closeChannel(context: RealtimeContext, channel: Channel): void {
  removeChannel(context, channel);
  sendLifecycle(channel, 'phx_close');
}

/**
 * Realtime's shutdown_response: a `system` error message, then the channel closes
 * (docs/supabase-protocols.md#token-refresh-on-a-joined-channel).
 */
export function shutDownChannel(context: RealtimeContext, channel: Channel, message: string): void {
  pushTo(channel, 'system', { extension: 'system', status: 'error', message, channel: channel.subTopic });
  closeChannel(context, channel);
}

/** The channel crashed: phx_error, after which the client rejoins. */
export function failChannel(context: RealtimeContext, channel: Channel): void {
  removeChannel(context, channel);
  sendLifecycle(channel, 'phx_error');
}
