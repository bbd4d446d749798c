import type { Channel } from './channel.ts';
import type { RealtimeClaims } from './tokens.ts';

export type Extension = 'broadcast' | 'presence';

/** Who asks, about which topic: what a policy on realtime.messages sees. */
export interface AuthorizationRequest {
  subTopic: string;
  claims: RealtimeClaims;
  headers: Record<string, string>;
}

/** The request a channel's authorization check makes: its sub-topic, as the channel's user (or `claims`). */
export function authorizationRequest(
  channel: Channel,
  claims: RealtimeClaims = channel.claims,
): AuthorizationRequest {
  return { subTopic: channel.subTopic, claims, headers: channel.connection.headers };
}
