/**
 * The tenant settings and timers of hosted Realtime that the stand-in reproduces (reference §2.1, §2.12).
 * The backoffs and the idle timeout are settable so that tests need not wait for them.
 */
export interface RealtimeSettings {
  /** Web origins allowed to open the WebSocket; requests without Origin (Node, CLI) are always allowed. */
  allowedOrigins: string[];
  /** CHANNEL_ERROR_BACKOFF_MS: a refused join is answered after this long (hosted: 5 s). */
  joinErrorBackoffMs: number;
  /** A refused handshake is answered after this long (hosted: 2 s). */
  connectErrorBackoffMs: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed (Phoenix: 60 s). */
  idleTimeoutMs: number;
  maxChannelsPerClient: number;
  maxPayloadBytes: number;
  /**
   * A joined channel is checked again at least this often, and when its token expires (hosted: 5 min):
   * the token, and on a private channel its read policies.
   */
  tokenRecheckMs: number;
  /** How soon the database listener tries again after its connection dropped. */
  listenerReconnectMs: number;
  /** Broadcast rows older than this are deleted (hosted drops daily partitions after ~3 days). */
  messageRetentionMs: number;
  cleanupIntervalMs: number;
}

export const HOSTED_REALTIME_SETTINGS: Omit<RealtimeSettings, 'allowedOrigins'> = {
  joinErrorBackoffMs: 5_000,
  connectErrorBackoffMs: 2_000,
  idleTimeoutMs: 60_000,
  maxChannelsPerClient: 100,
  maxPayloadBytes: 3_000 * 1024,
  tokenRecheckMs: 5 * 60_000,
  listenerReconnectMs: 1_000,
  messageRetentionMs: 3 * 24 * 3600_000,
  cleanupIntervalMs: 3600_000,
};
