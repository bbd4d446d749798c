import type { AuthorizationRequest, Extension } from './authorization-request.ts';
import type { Channel, Policies } from './channel.ts';
import { shutDownChannel } from './channel-lifecycle.ts';
import type { RealtimeContext } from './context.ts';
import { isRecord } from './join-payload.ts';
import type { PhoenixMessage } from './wire.ts';

/** Read permissions of a private channel; a public one may read everything. */
export async function readPolicies(
  context: RealtimeContext,
  request: AuthorizationRequest,
  isPrivate: boolean,
  presenceEnabled: boolean,
): Promise<Policies> {
  const unasked = { broadcastWrite: null, presenceWrite: null };
  if (!isPrivate) return { broadcastRead: true, presenceRead: true, ...unasked };
  const extensions: Extension[] = presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'];
  const readable = await context.authorizer.read(request, extensions);
  return {
    broadcastRead: readable.has('broadcast'),
    presenceRead: presenceEnabled ? readable.has('presence') : null,
    ...unasked,
  };
}

/**
 * `access_token` on a joined channel (reference §2.5): no reply; an unchanged, empty or `sb_` token is
 * ignored; a new one is verified and read permission asked again, the write answers forgotten. A refused
 * token, or a read permission the new token no longer has, shuts the channel down.
 */
export async function refreshAccessToken(
  context: RealtimeContext,
  channel: Channel,
  message: PhoenixMessage,
): Promise<void> {
  const token = isRecord(message.payload) ? message.payload.access_token : undefined;
  if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.token) return;
  const check = await context.verifyToken(token);
  if (!check.ok) return shutDownChannel(context, channel, check.refusal.message);
  const request = { subTopic: channel.subTopic, claims: check.claims, headers: channel.connection.headers };
  const policies = await readPolicies(context, request, channel.isPrivate, channel.presenceEnabled);
  if (readRevoked(channel.policies, policies)) {
    return shutDownChannel(
      context,
      channel,
      `You no longer have permission to read from this Channel topic: ${channel.subTopic}`,
    );
  }
  Object.assign(channel, { token, claims: check.claims, policies });
  watchTokenExpiry(context, channel);
}

/** Re-checks the channel's token at its expiry (and at least every tokenRecheckMs); shuts it down then. */
export function watchTokenExpiry(context: RealtimeContext, channel: Channel): void {
  clearTimeout(channel.tokenTimer);
  const untilExpiry = channel.claims.exp * 1000 - Date.now();
  const delay = Math.max(10, Math.min(context.settings.tokenRecheckMs, untilExpiry));
  channel.tokenTimer = setTimeout(() => void recheckToken(context, channel), delay);
  channel.tokenTimer.unref();
}

async function recheckToken(context: RealtimeContext, channel: Channel): Promise<void> {
  const check = await context.verifyToken(channel.token);
  if (channel.connection.channels.get(channel.topic) !== channel) return;
  if (check.ok) watchTokenExpiry(context, channel);
  else shutDownChannel(context, channel, check.refusal.message);
}

function readRevoked(before: Policies, after: Policies): boolean {
  return (
    (before.broadcastRead && !after.broadcastRead) || (before.presenceRead === true && !after.presenceRead)
  );
}
