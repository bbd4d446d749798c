/**
 * The parts of a phx_join payload Realtime reads (docs/supabase-protocols.md#join-leave-and-close), with the
 * defaults of realtime-js.
 */
export interface JoinParams {
  self: boolean;
  ack: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  isPrivate: boolean;
  /** `config.broadcast.replication_ready`: told with a `system` message when replication is ready. */
  replicationReady: boolean;
  postgresChanges: Record<string, unknown>[];
  /** `access_token` (or its alias `user_token`), unless absent or an opaque `sb_` key. */
  accessToken: string | null;
}

export function readJoinPayload(payload: unknown): JoinParams {
  const body = record(payload);
  const config = record(body.config);
  const broadcast = record(config.broadcast);
  const presence = record(config.presence);
  const token = body.access_token ?? body.user_token;
  return {
    self: broadcast.self === true,
    ack: broadcast.ack === true,
    presenceKey: typeof presence.key === 'string' ? presence.key : '',
    presenceEnabled: presence.enabled === true,
    isPrivate: config.private === true,
    replicationReady: broadcast.replication_ready === true,
    postgresChanges: Array.isArray(config.postgres_changes) ? config.postgres_changes.filter(isRecord) : [],
    accessToken: typeof token === 'string' && !token.startsWith('sb_') ? token : null,
  };
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
