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
 * `access_token` on a joined channel (docs/supabase-protocols.md#token-refresh-on-a-joined-channel): no
 * reply; an unchanged, empty or `sb_` token is ignored; a new one is checked again (recheckChannel), the
 * write answers forgotten.
 */
export async function refreshAccessToken(
  context: RealtimeContext,
  channel: Channel,
  message: PhoenixMessage,
): Promise<void> {
  const token = isRecord(message.payload) ? message.payload.access_token : undefined;
  if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.token) return;
  await recheckChannel(context, channel, token);
}

/** Checks the channel again at its token's expiry, and at least every tokenRecheckMs (recheckChannel). */
export function watchTokenExpiry(context: RealtimeContext, channel: Channel): void {
  clearTimeout(channel.tokenTimer);
  const untilExpiry = channel.claims.exp * 1000 - Date.now();
  const delay = Math.max(10, Math.min(context.settings.tokenRecheckMs, untilExpiry));
  channel.tokenTimer = setTimeout(() => void periodicRecheck(context, channel), delay);
  channel.tokenTimer.unref();
}

async function periodicRecheck(context: RealtimeContext, channel: Channel): Promise<void> {
  try {
    await recheckChannel(context, channel, channel.token);
  } catch (error) {
    // As at join: policies that cannot be evaluated let no one read.
    context.log(
      `could not check the read policies of ${channel.subTopic} again: ${(error as Error).message}`,
    );
    if (isCurrent(channel)) shutDownChannel(context, channel, 'Realtime was unable to set policies');
  }
}

/**
 * Checks a joined channel as hosted does when its token is refreshed: the token is verified, and on a
 * private channel the read policies are evaluated again, as at join. A refused token, or a read
 * permission the channel had and no longer has (its user left the topic's members, say), shuts it down
 * with a `system` error; otherwise the channel goes on with the token and the new answers.
 */
async function recheckChannel(context: RealtimeContext, channel: Channel, token: string): Promise<void> {
  const check = await context.verifyToken(token);
  if (!isCurrent(channel)) return;
  if (!check.ok) return shutDownChannel(context, channel, check.refusal.message);
  const request = { subTopic: channel.subTopic, claims: check.claims, headers: channel.connection.headers };
  const policies = await readPolicies(context, request, channel.isPrivate, channel.presenceEnabled);
  if (!isCurrent(channel)) return;
  if (readRevoked(channel.policies, policies)) {
    return shutDownChannel(
      context,
      channel,
      `You no longer have permission to read from this Channel topic: ${channel.subTopic}`,
    );
  }
  const unchanged = token === channel.token;
  Object.assign(channel, {
    token,
    claims: check.claims,
    // The write answers stand for as long as the token does (docs/supabase-protocols.md#broadcast).
    policies: unchanged ? { ...channel.policies, ...readsOf(policies) } : policies,
  });
  watchTokenExpiry(context, channel);
}

/** Whether the channel is still joined on its socket (it may have left while a check ran). */
function isCurrent(channel: Channel): boolean {
  return channel.connection.channels.get(channel.topic) === channel;
}

function readsOf({
  broadcastRead,
  presenceRead,
}: Policies): Pick<Policies, 'broadcastRead' | 'presenceRead'> {
  return { broadcastRead, presenceRead };
}

function readRevoked(before: Policies, after: Policies): boolean {
  return (
    (before.broadcastRead && !after.broadcastRead) || (before.presenceRead === true && !after.presenceRead)
  );
}
