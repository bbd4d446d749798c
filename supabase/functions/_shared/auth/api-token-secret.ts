/**
 * The secret of a personal API token: `tl_pat_` followed by 32 random bytes written as 43 base62
 * characters (letters and digits only, so a double click selects all of it). The secret is shown once;
 * only its SHA-256 is stored, and its first characters (the display prefix) help people recognise it.
 */
import { API_TOKEN_PREFIX } from './credential-verifier.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_BYTES = 32;
/** 62^43 > 2^256: every 32-byte value has a 43-character spelling. */
const RANDOM_LENGTH = 43;
const DISPLAYED_RANDOM_CHARACTERS = 4;
const WELL_FORMED = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH}}$`);

export function generateApiTokenSecret(): string {
  return apiTokenSecretFrom(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
}

/** The secret that spells these 32 bytes; exported for tests, which need known bytes. */
export function apiTokenSecretFrom(bytes: Uint8Array): string {
  if (bytes.length !== RANDOM_BYTES) throw new Error(`an API token secret takes ${RANDOM_BYTES} bytes`);
  return API_TOKEN_PREFIX + base62(bytes);
}

/** Whether the token has the shape of a secret this module makes; anything else is never looked up. */
export function isWellFormedApiToken(token: string): boolean {
  return WELL_FORMED.test(token);
}

/** What lists show of a token, e.g. `tl_pat_4fQx`. */
export function displayPrefixOf(secret: string): string {
  return secret.slice(0, API_TOKEN_PREFIX.length + DISPLAYED_RANDOM_CHARACTERS);
}

/** The SHA-256 of the whole secret, in hex: what the database stores and looks tokens up by. */
export async function hashApiToken(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base62(bytes: Uint8Array): string {
  let value = bytes.reduce((number, byte) => (number << 8n) | BigInt(byte), 0n);
  let text = '';
  for (let position = 0; position < RANDOM_LENGTH; position += 1) {
    text = ALPHABET.charAt(Number(value % 62n)) + text;
    value /= 62n;
  }
  return text;
}
