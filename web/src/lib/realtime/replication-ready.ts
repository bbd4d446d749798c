import type { RealtimeChannel } from '@supabase/supabase-js';

/**
 * The join option that asks Realtime to say when the replication carrying database broadcasts is running:
 * hosted starts it asynchronously, so a join can be SUBSCRIBED before a row committed meanwhile is streamed
 * (docs/realtime.md#joining).
 */
export const REPLICATION_READY_CONFIG = { replication_ready: true } as const;

/** Runs `ready` each time the channel's `system` message says the replication connection is established. */
export function onReplicationReady(channel: RealtimeChannel, ready: () => void): void {
  channel.on('system', {}, (payload: { extension?: unknown; status?: unknown }) => {
    if (payload.extension === 'system' && payload.status === 'ok') ready();
  });
}
