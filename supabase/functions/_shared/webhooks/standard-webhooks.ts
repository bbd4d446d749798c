/**
 * Signs webhook deliveries the Standard Webhooks way (https://www.standardwebhooks.com): each secret is
 * `whsec_` + base64 of its key, and the signature header holds `v1,<base64 HMAC-SHA256>` of
 * `${id}.${timestamp}.${body}` once per secret, so a receiver holding either key verifies during a
 * rotation. WebCrypto only: the same file runs in the edge function and in the Node tests.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_KEY_BYTES = 32;

export interface WebhookToSign {
  /** The delivery's id, the same on every retry so receivers can drop duplicates. */
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  secrets: readonly string[];
}

export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function generateWebhookSecret(): string {
  const key = crypto.getRandomValues(new Uint8Array(SECRET_KEY_BYTES));
  return WEBHOOK_SECRET_PREFIX + toBase64(key);
}

export async function signWebhook(input: WebhookToSign): Promise<string> {
  const content = new TextEncoder().encode(`${input.id}.${input.timestamp}.${input.body}`);
  const signatures = await Promise.all(
    input.secrets.map(async (secret) => `v1,${toBase64(await hmacSha256(keyOf(secret), content))}`),
  );
  return signatures.join(' ');
}

export async function webhookHeaders(input: WebhookToSign): Promise<StandardWebhookHeaders> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': await signWebhook(input),
  };
}

function keyOf(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_.');
  return Uint8Array.from(atob(secret.slice(WEBHOOK_SECRET_PREFIX.length)), (char) => char.charCodeAt(0));
}

async function hmacSha256(
  key: Uint8Array<ArrayBuffer>,
  content: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, content));
}

function toBase64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
}
