/**
 * The Phoenix envelope on the wire, in both serializers realtime-js speaks
 * (docs/supabase-protocols.md#serializers): vsn 1.0.0 JSON objects; vsn 2.0.0 JSON arrays plus binary frames,
 * kind 3 (user broadcast push, in) and kind 4 (user broadcast, out).
 */
export type Vsn = '1.0.0' | '2.0.0';
export const VSNS: readonly Vsn[] = ['1.0.0', '2.0.0'];

export interface PhoenixMessage {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
  /** Set for a kind-3 frame: the broadcast it carries. */
  userBroadcast?: UserBroadcast;
}

/** A user broadcast: what `channel.send({type:'broadcast', event, payload})` carries. */
export interface UserBroadcast {
  event: string;
  /** Parsed JSON, or the bytes of a binary payload. */
  payload: unknown;
  meta?: Record<string, unknown>;
  /** It came in as a kind-3 frame: V2 sockets get it back as kind 4, as hosted does. */
  binaryFrame: boolean;
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

/** Decodes one frame, or returns null when it is not a message of the given serializer. */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): PhoenixMessage | null {
  try {
    if (isBinary) return vsn === '2.0.0' ? decodeUserBroadcastPush(data) : null;
    const parsed: unknown = JSON.parse(data.toString('utf8'));
    return vsn === '2.0.0' ? fromArray(parsed) : fromObject(parsed);
  } catch {
    return null;
  }
}

export function encodeMessage(vsn: Vsn, message: PhoenixMessage): string {
  const { join_ref, ref, topic, event, payload } = message;
  return JSON.stringify(
    vsn === '2.0.0' ? [join_ref, ref, topic, event, payload] : { topic, event, payload, ref, join_ref },
  );
}

/** A broadcast to a subscriber: a kind-4 frame where hosted sends one, else a JSON `broadcast` message. */
export function encodeBroadcast(vsn: Vsn, topic: string, broadcast: UserBroadcast): string | Buffer | null {
  const binary = Buffer.isBuffer(broadcast.payload);
  if (vsn === '2.0.0' && (binary || broadcast.binaryFrame)) return encodeUserBroadcast(topic, broadcast);
  if (binary) return null; // a V1 socket cannot carry bytes
  const payload = { type: 'broadcast', event: broadcast.event, payload: broadcast.payload };
  return encodeMessage(vsn, {
    join_ref: null,
    ref: null,
    topic,
    event: 'broadcast',
    payload: broadcast.meta ? { ...payload, meta: broadcast.meta } : payload,
  });
}

function fromArray(parsed: unknown): PhoenixMessage | null {
  if (!Array.isArray(parsed) || parsed.length !== 5) return null;
  const [join_ref, ref, topic, event, payload] = parsed as unknown[];
  return envelope({ join_ref, ref, topic, event, payload });
}

function fromObject(parsed: unknown): PhoenixMessage | null {
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { join_ref = null, ref = null, topic, event, payload } = parsed as Record<string, unknown>;
  return envelope({ join_ref, ref, topic, event, payload });
}

function envelope(
  fields: Record<'join_ref' | 'ref' | 'topic' | 'event' | 'payload', unknown>,
): PhoenixMessage | null {
  const { join_ref, ref, topic, event, payload } = fields;
  if (!nullableString(join_ref) || !nullableString(ref)) return null;
  if (typeof topic !== 'string' || typeof event !== 'string') return null;
  return { join_ref, ref, topic, event, payload };
}

const nullableString = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

function decodeUserBroadcastPush(data: Buffer): PhoenixMessage | null {
  if (data[0] !== KIND_USER_BROADCAST_PUSH || data.length < 7) return null;
  const lengths = [data[1], data[2], data[3], data[4], data[5]] as number[];
  const encoding = data[6];
  let offset = 7;
  const [joinRef, ref, topic, userEvent, metadata] = lengths.map((length) => {
    const text = data.subarray(offset, offset + length).toString('utf8');
    offset += length;
    return text;
  }) as [string, string, string, string, string];
  const body = data.subarray(offset);
  const payload: unknown = encoding === ENCODING_JSON ? JSON.parse(body.toString('utf8')) : Buffer.from(body);
  const broadcast: UserBroadcast = { event: userEvent, payload, binaryFrame: true };
  if (metadata) broadcast.meta = JSON.parse(metadata) as Record<string, unknown>;
  return {
    join_ref: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: null,
    userBroadcast: broadcast,
  };
}

function encodeUserBroadcast(topic: string, broadcast: UserBroadcast): Buffer {
  const binary = Buffer.isBuffer(broadcast.payload);
  const body = binary ? (broadcast.payload as Buffer) : Buffer.from(JSON.stringify(broadcast.payload));
  const topicBytes = Buffer.from(topic);
  const eventBytes = Buffer.from(broadcast.event);
  const metaBytes = Buffer.from(broadcast.meta ? JSON.stringify(broadcast.meta) : '');
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    metaBytes.length,
    binary ? ENCODING_BINARY : ENCODING_JSON,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, metaBytes, body]);
}
