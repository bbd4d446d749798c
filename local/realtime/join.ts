import { randomUUID } from 'node:crypto';
import { replyTo, TOPIC_PREFIX, type Channel, type Connection, type Policies } from './channel.ts';
import { closeChannel } from './channel-lifecycle.ts';
import { NO_PRESENCE_YET } from './client-presence-limit.ts';
import { readPolicies, watchTokenExpiry } from './channel-token.ts';
import type { RealtimeContext } from './context.ts';
import { readJoinPayload, type JoinParams } from './join-payload.ts';
import { postgresChangesReply, refusePostgresChanges } from './postgres-changes.ts';
import { syncPresence } from './presence.ts';
import { startReplication } from './replication-ready.ts';
import type { RealtimeClaims } from './tokens.ts';
import type { PhoenixMessage } from './wire.ts';

type Admission =
  { ok: true; claims: RealtimeClaims; token: string; policies: Policies } | { ok: false; reason: string };

/**
 * phx_join (docs/supabase-protocols.md#join-leave-and-close). A second join of a joined topic closes the old
 * channel first. A refused join is answered with `{reason: "<Code>: <message>"}` after the join error
 * backoff, as hosted does. After the ok reply: the refusal of any postgres_changes, then replication.
 */
export async function joinChannel(
  context: RealtimeContext,
  connection: Connection,
  message: PhoenixMessage,
): Promise<void> {
  const existing = connection.channels.get(message.topic);
  if (existing) closeChannel(context, existing);
  if (!message.topic.startsWith(TOPIC_PREFIX)) {
    return replyTo(connection, message, 'error', { reason: 'unmatched topic' });
  }
  const params = readJoinPayload(message.payload);
  const subTopic = message.topic.slice(TOPIC_PREFIX.length);
  const admission = await admit(context, connection, subTopic, params);
  if (!admission.ok) {
    context.log(`refused a join of ${message.topic}: ${admission.reason}`);
    const timer = setTimeout(
      () => replyTo(connection, message, 'error', { reason: admission.reason }),
      context.settings.joinErrorBackoffMs,
    );
    timer.unref();
    return;
  }
  const channel = newChannel(connection, message, subTopic, params, admission);
  connection.channels.set(channel.topic, channel);
  context.hub.add(channel);
  replyTo(connection, message, 'ok', { postgres_changes: postgresChangesReply(params.postgresChanges) });
  if (params.postgresChanges.length > 0) refusePostgresChanges(context, channel);
  startReplication(context, channel, params.replicationReady);
  syncPresence(context, channel);
  watchTokenExpiry(context, channel);
}

async function admit(
  context: RealtimeContext,
  connection: Connection,
  subTopic: string,
  params: JoinParams,
): Promise<Admission> {
  if (subTopic === '') return { ok: false, reason: 'TopicNameRequired: You must provide a topic name' };
  if (connection.channels.size >= context.settings.maxChannelsPerClient) {
    return { ok: false, reason: 'ChannelRateLimitReached: Too many channels' };
  }
  const token = params.accessToken ?? connection.socketToken;
  const check = await context.verifyToken(token);
  if (!check.ok) return { ok: false, reason: check.refusal.joinReason };
  const request = { subTopic, claims: check.claims, headers: connection.headers };
  const policies = await readPolicies(context, request, params.isPrivate, params.presenceEnabled).catch(
    (error: unknown) => {
      context.log(`could not evaluate the read policies of ${subTopic}: ${(error as Error).message}`);
      return null;
    },
  );
  if (!policies) return { ok: false, reason: 'UnableToSetPolicies: Realtime was unable to set policies' };
  if (!policies.broadcastRead && !policies.presenceRead) {
    return {
      ok: false,
      reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`,
    };
  }
  return { ok: true, claims: check.claims, token, policies };
}

function newChannel(
  connection: Connection,
  message: PhoenixMessage,
  subTopic: string,
  params: JoinParams,
  admission: { claims: RealtimeClaims; token: string; policies: Policies },
): Channel {
  return {
    connection,
    topic: message.topic,
    subTopic,
    joinRef: message.join_ref ?? message.ref ?? '',
    isPrivate: params.isPrivate,
    self: params.self,
    ack: params.ack,
    presenceEnabled: params.presenceEnabled,
    presenceKey: params.presenceKey || randomUUID(),
    token: admission.token,
    claims: admission.claims,
    policies: admission.policies,
    trackedState: null,
    presenceWindow: NO_PRESENCE_YET,
    replicationReady: false,
  };
}
