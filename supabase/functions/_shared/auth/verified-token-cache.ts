/**
 * Access tokens whose signature and claims were verified recently, so that a client's every request
 * does not verify the same ES256 signature again (about half a millisecond each, the largest part of
 * authenticating). Only successful verifications are kept. An entry is used until its token expires
 * (with the same clock tolerance the verification allows) and at most TRUST_VERIFIED_TOKEN_MS after it
 * was verified. A token may have been verified with a JWKS up to AUTH_KEYS_CACHE_MAX_AGE_MS old, so a
 * signing key taken out of the project's JWKS stops being trusted within the sum of the two,
 * REMOVED_KEY_TRUSTED_MS. Whether the session still exists (and its user is neither banned nor
 * deleted) is never cached: it is checked on every request.
 */
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';

/** At most how long a token signed by a key removed from the JWKS is still accepted. */
export const REMOVED_KEY_TRUSTED_MS = 60_000;
/** Half of that bound: the other half is the JWKS's own cache (remoteAuthKeys). */
export const TRUST_VERIFIED_TOKEN_MS = REMOVED_KEY_TRUSTED_MS / 2;
const MAX_TOKENS = 10_000;

export interface VerifiedTokenCache {
  get(token: string): JWTPayload | undefined;
  remember(token: string, payload: JWTPayload): void;
}

export function verifiedTokenCache(clockToleranceSeconds: number): VerifiedTokenCache {
  const tokens = new LRUCache<string, JWTPayload>({ max: MAX_TOKENS });
  return {
    get: (token) => tokens.get(token),
    remember(token, payload) {
      const ttl = trustedForMs(payload, clockToleranceSeconds, Date.now());
      if (ttl > 0) tokens.set(token, payload, { ttl });
    },
  };
}

/** How long a verified token may be taken as verified, from `nowMs`: never past its expiry. */
export function trustedForMs(payload: JWTPayload, clockToleranceSeconds: number, nowMs: number): number {
  if (typeof payload.exp !== 'number') return 0;
  const expiresAtMs = (payload.exp + clockToleranceSeconds) * 1000;
  return Math.max(0, Math.min(TRUST_VERIFIED_TOKEN_MS, Math.floor(expiresAtMs - nowMs)));
}
