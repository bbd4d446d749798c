import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtForApiKey } from '../auth/api-keys.ts';
import { readBody, sendJson } from '../gateway/http.ts';
import type { RealtimeContext } from './context.ts';
import { httpRateRefusal } from './events-rate.ts';
import { fanOut, payloadSize } from './fan-out.ts';
import { isRecord } from './join-payload.ts';
import { policyHeaders } from './request-headers.ts';
import type { RealtimeClaims } from './tokens.ts';
import type { UserBroadcast } from './wire.ts';

/** One message of a batch (docs/supabase-protocols.md#broadcast-over-http). */
interface OutgoingMessage {
  topic: string;
  event: string;
  payload: unknown;
  isPrivate: boolean;
  id?: string;
}

interface Caller {
  claims: RealtimeClaims;
  headers: Record<string, string>;
}

const UNAUTHORIZED = { message: 'Unauthorized' };
const SINGLE_PATH = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/;

/**
 * `POST /api/broadcast` (batch) and `POST /api/broadcast/{topic}/events/{event}` (single), answered 202.
 * Private messages go out only if the caller passes the write policy of their topic, else they are
 * dropped silently (still 202). Over the project's message rate, or a batch that would take it over, is
 * refused with 429; each message sent counts against it.
 */
export async function answerHttpBroadcast(
  context: RealtimeContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const single = SINGLE_PATH.exec(url.pathname);
  if (req.method !== 'POST' || (url.pathname !== '/api/broadcast' && !single)) {
    return sendJson(res, 404, { message: 'Not Found' });
  }
  const caller = await authenticate(context, req);
  if (!caller) return sendJson(res, 401, UNAUTHORIZED);
  const body = await readBody(req, context.settings.maxPayloadBytes * 2);
  if (body === null) return sendJson(res, 413, { message: 'Payload too large' });
  const parsed = single ? singleMessage(req, url, single, body) : batchMessages(body);
  if (typeof parsed === 'string')
    return sendJson(res, 422, { message: parsed, errors: { messages: [parsed] } });
  const refusal = httpRateRefusal(
    context.eventsRate,
    context.settings.eventsRate,
    single ? null : parsed.length,
  );
  if (refusal) return sendJson(res, 429, { message: refusal });
  await send(context, caller, parsed);
  res.writeHead(202).end();
}

async function authenticate(context: RealtimeContext, req: IncomingMessage): Promise<Caller | null> {
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const apiKey = req.headers.apikey;
  const key = bearer && !bearer.startsWith('sb_') ? bearer : Array.isArray(apiKey) ? apiKey[0] : apiKey;
  if (!key) return null;
  const check = await context.verifyToken(jwtForApiKey(key, context.keys));
  return check.ok ? { claims: check.claims, headers: policyHeaders(req) } : null;
}

function batchMessages(body: Buffer): OutgoingMessage[] | string {
  const parsed = parseJson(body);
  if (!isRecord(parsed) || !Array.isArray(parsed.messages)) return 'messages is required';
  const messages: OutgoingMessage[] = [];
  for (const entry of parsed.messages) {
    if (!isRecord(entry)) return 'each message must be an object';
    if (typeof entry.topic !== 'string' || entry.topic === '') return 'topic is required';
    if (typeof entry.event !== 'string' || entry.event === '') return 'event is required';
    if (!isRecord(entry.payload)) return 'payload is required';
    messages.push({
      topic: entry.topic,
      event: entry.event,
      payload: entry.payload,
      isPrivate: entry.private === true,
      ...(typeof entry.id === 'string' ? { id: entry.id } : {}),
    });
  }
  return messages;
}

function singleMessage(
  req: IncomingMessage,
  url: URL,
  [, topic = '', event = '']: RegExpExecArray,
  body: Buffer,
): OutgoingMessage[] | string {
  const binary = (req.headers['content-type'] ?? '').startsWith('application/octet-stream');
  const payload = binary ? body : parseJson(body);
  if (payload === undefined) return 'payload must be JSON';
  return [
    {
      topic: decodeURIComponent(topic),
      event: decodeURIComponent(event),
      payload,
      isPrivate: url.searchParams.get('private') === 'true',
    },
  ];
}

async function send(context: RealtimeContext, caller: Caller, messages: OutgoingMessage[]): Promise<void> {
  const allowed = new Map<string, boolean>();
  for (const message of messages) {
    if (payloadSize(message.payload) > context.settings.maxPayloadBytes) continue;
    if (message.isPrivate && !(await mayWrite(context, caller, message.topic, allowed))) continue;
    const broadcast: UserBroadcast = { event: message.event, payload: message.payload, binaryFrame: false };
    if (message.id) broadcast.meta = { id: message.id };
    context.eventsRate.add();
    fanOut(context, { isPrivate: message.isPrivate, subTopic: message.topic }, broadcast);
  }
}

/** The write check, asked once per topic of a request. */
async function mayWrite(
  context: RealtimeContext,
  caller: Caller,
  topic: string,
  allowed: Map<string, boolean>,
): Promise<boolean> {
  if (!allowed.has(topic)) {
    const request = { subTopic: topic, claims: caller.claims, headers: caller.headers };
    allowed.set(topic, await context.authorizer.write(request, 'broadcast'));
  }
  return allowed.get(topic) === true;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
