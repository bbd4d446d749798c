import { createHash, randomInt } from 'node:crypto';

/** GoTrue's `[auth.email] otp_length` and `otp_expiry` defaults. */
export const OTP_LENGTH = 6;
export const OTP_EXPIRY_SECONDS = 3600;
/** GoTrue's `[auth.email] max_frequency`: how soon the same user may be sent another e-mail. */
export const EMAIL_MAX_FREQUENCY_SECONDS = 1;

const PKCE_PREFIX = 'pkce_';

/** The one-time token of an e-mail: the code people type, and the hash the link carries. */
export interface EmailToken {
  /** The 6-digit code printed in the e-mail. Never log it. */
  otp: string;
  /** SHA-224 of e-mail + code, as GoTrue stores and links it; `pkce_`-prefixed in the PKCE flow. */
  tokenHash: string;
}

export type FlowType = 'implicit' | 'pkce';

export function newEmailToken(email: string, flow: FlowType): EmailToken {
  const otp = String(randomInt(10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  const hash = emailTokenHash(email, otp);
  return { otp, tokenHash: flow === 'pkce' ? `${PKCE_PREFIX}${hash}` : hash };
}

/** GoTrue's `crypto.GenerateTokenHash`. */
export function emailTokenHash(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

export function flowOfToken(token: string): FlowType {
  return token.startsWith(PKCE_PREFIX) ? 'pkce' : 'implicit';
}

/** Whether a code's hash matches a stored token, which may carry the PKCE prefix. */
export function tokenMatches(stored: string | null, hash: string): boolean {
  return !!stored && (stored === hash || stored === `${PKCE_PREFIX}${hash}`);
}

export function isExpired(sentAt: Date | null, now = Date.now()): boolean {
  return !sentAt || now > sentAt.getTime() + OTP_EXPIRY_SECONDS * 1000;
}
