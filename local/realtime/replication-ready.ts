import { pushTo, type Channel } from './channel.ts';
import type { RealtimeContext } from './context.ts';

/**
 * Hosted Realtime starts the replication that streams realtime.messages asynchronously: a join can be
 * SUBSCRIBED before a row committed meanwhile is streamed, and such a row never reaches it. The stand-in
 * holds database broadcasts back from a new channel for the replication-ready delay (none by default);
 * a join that asked (`config.broadcast.replication_ready`) is then told with hosted's `system` message
 * (docs/supabase-protocols.md#broadcast-from-the-database).
 */
export function startReplication(context: RealtimeContext, channel: Channel, notify: boolean): void {
  const ready = () => {
    channel.replicationReady = true;
    if (!notify) return;
    pushTo(channel, 'system', {
      extension: 'system',
      status: 'ok',
      message: 'Replication connection established',
      channel: channel.subTopic,
    });
  };
  const delay = context.settings.replicationReadyDelayMs;
  if (delay === 0) return ready();
  channel.replicationTimer = setTimeout(ready, delay);
  channel.replicationTimer.unref();
}
