import type { PresenceWindow } from './client-presence-limit.ts';
import type { RealtimeClaims } from './tokens.ts';
import type { PhoenixMessage, Vsn } from './wire.ts';

/** One WebSocket of a client, as the channels on it see it. */
export interface Connection {
  vsn: Vsn;
  /** The socket's token (the `apikey` JWT): a join without `access_token` uses it. */
  socketToken: string;
  /** The upgrade request's headers, less credentials: `request.headers` in policies. */
  headers: Record<string, string>;
  /** The joined channels, by wire topic (`realtime:room:1`). */
  channels: Map<string, Channel>;
  send(message: PhoenixMessage): void;
  /** A frame encoded for this socket's serializer (encodeBroadcast): once per message, not per socket. */
  sendFrame(frame: string | Buffer | null): void;
}

/** What a private channel's user may do, as its RLS policies said; null = not asked yet. */
export interface Policies {
  broadcastRead: boolean;
  presenceRead: boolean | null;
  broadcastWrite: boolean | null;
  presenceWrite: boolean | null;
}

/** A joined channel: one topic on one socket. */
export interface Channel {
  connection: Connection;
  /** The wire topic, `realtime:<subTopic>`. */
  topic: string;
  subTopic: string;
  joinRef: string;
  isPrivate: boolean;
  self: boolean;
  ack: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
  token: string;
  claims: RealtimeClaims;
  policies: Policies;
  trackedState: Record<string, unknown> | null;
  /** Its presence messages in the current window of the client presence limit. */
  presenceWindow: PresenceWindow;
  tokenTimer?: NodeJS.Timeout;
  /** Database broadcasts reach the channel only once its replication is ready (replication-ready.ts). */
  replicationReady: boolean;
  replicationTimer?: NodeJS.Timeout;
}

export const TOPIC_PREFIX = 'realtime:';

/** Private and public channels of one name are separate namespaces. */
export function namespaceOf(isPrivate: boolean, subTopic: string): string {
  return `${isPrivate ? 'private' : 'public'}:${subTopic}`;
}

export function pushTo(channel: Channel, event: string, payload: unknown): void {
  channel.connection.send({ join_ref: channel.joinRef, ref: null, topic: channel.topic, event, payload });
}

export function replyTo(
  connection: Connection,
  message: PhoenixMessage,
  status: 'ok' | 'error',
  response: Record<string, unknown>,
): void {
  connection.send({
    join_ref: message.join_ref,
    ref: message.ref,
    topic: message.topic,
    event: 'phx_reply',
    payload: { status, response },
  });
}

/**
 * phx_close and phx_error carry ref = join_ref, or the client ignores them
 * (docs/supabase-protocols.md#join-leave-and-close).
 */
export function sendLifecycle(channel: Channel, event: 'phx_close' | 'phx_error'): void {
  channel.connection.send({
    join_ref: channel.joinRef,
    ref: channel.joinRef,
    topic: channel.topic,
    event,
    payload: {},
  });
}
