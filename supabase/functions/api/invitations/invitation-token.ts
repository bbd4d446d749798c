/**
 * An invitation's token: 32 random bytes written as 43 base64url characters, the last part of its
 * `accept_url`. It is shown once, when the invitation is created; only its SHA-256 is stored, and
 * accepting looks the invitation up by that hash.
 */
import { toBase64url } from '../../_shared/base64url.ts';

const RANDOM_BYTES = 32;
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

export function generateInvitationToken(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
}

/** Whether the token has the shape of one this module makes; anything else is never looked up. */
export function isWellFormedInvitationToken(token: string): boolean {
  return WELL_FORMED.test(token);
}

/** The SHA-256 of the token as written, in hex: what the database stores and looks invitations up by. */
export async function hashInvitationToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The web app's page for accepting the invitation. */
export function acceptUrlOf(appUrl: string, token: string): string {
  return `${appUrl}/invite/${token}`;
}
