/**
 * The token of a mail's unsubscribe link (RFC 8058): who it was sent to and the notification types it told
 * of, signed with HMAC-SHA256 under a key that only the database and the service hold
 * (private.signing_keys). Anyone holding the link may turn that mail off, and nothing else; it needs no
 * sign-in, as one click from a mail client must work.
 */
import { z } from 'zod';
import { fromBase64url, toBase64url, utf8FromBase64url } from '../../_shared/base64url.ts';
import type { NotificationType } from '../../_shared/api-types.ts';
import { NOTIFICATION_TYPES } from '../notifications/notifications.schemas.ts';

export interface UnsubscribeGrant {
  userId: string;
  types: NotificationType[];
}

/** Longer than any token this module signs, short enough that nobody sends megabytes through it. */
export const UNSUBSCRIBE_TOKEN_MAX_LENGTH = 512;

/** What a token looks like: two base64url parts joined by a dot. Anything else is never verified. */
export const UnsubscribeTokenShape = z
  .string()
  .max(UNSUBSCRIBE_TOKEN_MAX_LENGTH)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

const Payload = z.object({ v: z.literal(1), u: z.uuid(), t: z.array(z.enum(NOTIFICATION_TYPES)).min(1) });

const hmacKey = (key: Uint8Array<ArrayBuffer>, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

export async function signUnsubscribeToken(
  key: Uint8Array<ArrayBuffer>,
  grant: UnsubscribeGrant,
): Promise<string> {
  const payload = toBase64url(
    new TextEncoder().encode(JSON.stringify({ v: 1, u: grant.userId, t: grant.types })),
  );
  const signature = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(key, 'sign'),
    new TextEncoder().encode(payload),
  );
  return `${payload}.${toBase64url(new Uint8Array(signature))}`;
}

/** What the token grants, or null when it is not one this service signed (the check takes constant time). */
export async function verifyUnsubscribeToken(
  key: Uint8Array<ArrayBuffer>,
  token: string,
): Promise<UnsubscribeGrant | null> {
  if (token.length > UNSUBSCRIBE_TOKEN_MAX_LENGTH) return null;
  const [payload, signature, ...rest] = token.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return null;
  const signatureBytes = fromBase64url(signature);
  if (!signatureBytes) return null;
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(key, 'verify'),
    signatureBytes,
    new TextEncoder().encode(payload),
  );
  if (!valid) return null;
  const parsed = Payload.safeParse(parseJson(utf8FromBase64url(payload)));
  return parsed.success ? { userId: parsed.data.u, types: [...new Set(parsed.data.t)] } : null;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
