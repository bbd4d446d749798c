import type { ClientPresenceLimit } from './client-presence-limit.ts';
import type { EventsRateLimit } from './events-rate.ts';

/**
 * The tenant settings and timers of hosted Realtime that the stand-in reproduces
 * (docs/supabase-protocols.md#tenant-limits-and-timers). The backoffs and the idle timeout are settable so
 * that tests need not wait for them.
 */
export interface RealtimeSettings {
  /** CHANNEL_ERROR_BACKOFF_MS: a refused join is answered after this long (hosted: 5 s). */
  joinErrorBackoffMs: number;
  /** A refused handshake is answered after this long (hosted: 2 s). */
  connectErrorBackoffMs: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed (Phoenix: 60 s). */
  idleTimeoutMs: number;
  maxChannelsPerClient: number;
  /**
   * The most a broadcast's or a presence track's payload may weigh: the tenant's max_payload_size_in_kb
   * (3,000) counted as hosted counts it, 1,000 bytes a KB plus 500 bytes of slack (tenants.ex). A bigger
   * broadcast is dropped; a bigger track shuts its channel down ("Track message size exceeded").
   */
  maxPayloadBytes: number;
  /** Presence messages a channel may send in a window (hosted: 5 in 30 s); more shut it down. */
  clientPresenceLimit: ClientPresenceLimit;
  /**
   * A joined channel is checked again at least this often, and when its token expires (hosted: 5 min):
   * the token, and on a private channel its read policies.
   */
  tokenRecheckMs: number;
  /**
   * How long after a join its replication becomes ready: until then database broadcasts do not reach it, as
   * on hosted, whose replication starts asynchronously (0 there is "at once"; a test sets a delay).
   */
  replicationReadyDelayMs: number;
  /**
   * The project's message rate (max_events_per_second, hosted: 100 on average over a minute, counted every
   * 5 s); over it database broadcasts are dropped and channels that are delivered a message are shut down.
   */
  eventsRate: EventsRateLimit;
  /** How soon the database listener tries again after its connection dropped. */
  listenerReconnectMs: number;
  /** Broadcast rows older than this are deleted (hosted drops daily partitions after ~3 days). */
  messageRetentionMs: number;
  cleanupIntervalMs: number;
}

export const HOSTED_REALTIME_SETTINGS: RealtimeSettings = {
  joinErrorBackoffMs: 5_000,
  connectErrorBackoffMs: 2_000,
  idleTimeoutMs: 60_000,
  maxChannelsPerClient: 100,
  maxPayloadBytes: payloadLimitOf(3_000),
  clientPresenceLimit: { maxCalls: 5, windowMs: 30_000 },
  tokenRecheckMs: 5 * 60_000,
  replicationReadyDelayMs: 0,
  eventsRate: { maxEventsPerSecond: 100, tickMs: 5_000 },
  listenerReconnectMs: 1_000,
  messageRetentionMs: 3 * 24 * 3600_000,
  cleanupIntervalMs: 3600_000,
};

/** The payload limit, in bytes, of a tenant's max_payload_size_in_kb (realtime's tenants.ex). */
export function payloadLimitOf(maxPayloadSizeInKb: number): number {
  return maxPayloadSizeInKb * 1_000 + 500;
}
