import { describe, expect, it } from 'vitest';
import { AUTH_KEYS_CACHE_MAX_AGE_MS, AUTH_KEYS_COOLDOWN_MS } from './signing-keys.ts';
import {
  REMOVED_KEY_TRUSTED_MS,
  TRUST_VERIFIED_TOKEN_MS,
  trustedForMs,
  verifiedTokenCache,
} from './verified-token-cache.ts';

const NOW_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSeconds = NOW_MS / 1000;

describe('how long a verified access token is trusted', () => {
  it('is at most half a minute, however long the token has left', () => {
    expect(trustedForMs({ exp: nowSeconds + 3600 }, 30, NOW_MS)).toBe(TRUST_VERIFIED_TOKEN_MS);
    expect(TRUST_VERIFIED_TOKEN_MS).toBe(30_000);
  });

  it('leaves the JWKS cache the rest of the minute a removed signing key may still be trusted', () => {
    expect(REMOVED_KEY_TRUSTED_MS).toBe(60_000);
    expect(AUTH_KEYS_CACHE_MAX_AGE_MS + TRUST_VERIFIED_TOKEN_MS).toBe(REMOVED_KEY_TRUSTED_MS);
    expect(AUTH_KEYS_COOLDOWN_MS).toBeLessThan(AUTH_KEYS_CACHE_MAX_AGE_MS);
  });

  it('ends when the token expires, with the clock tolerance', () => {
    expect(trustedForMs({ exp: nowSeconds - 5 }, 30, NOW_MS)).toBe(25_000);
    expect(trustedForMs({ exp: nowSeconds - 20 }, 30, NOW_MS)).toBe(10_000);
  });

  it('is nothing for a token past its tolerance, or without an expiry', () => {
    expect(trustedForMs({ exp: nowSeconds - 31 }, 30, NOW_MS)).toBe(0);
    expect(trustedForMs({}, 30, NOW_MS)).toBe(0);
  });
});

describe('the verified token cache', () => {
  it('answers the payload it was given for the same token only', () => {
    const cache = verifiedTokenCache(30);
    const payload = { sub: 'a', exp: Math.floor(Date.now() / 1000) + 3600 };
    cache.remember('token-a', payload);
    expect(cache.get('token-a')).toEqual(payload);
    expect(cache.get('token-b')).toBeUndefined();
  });

  it('does not keep a token that has expired', () => {
    const cache = verifiedTokenCache(30);
    cache.remember('old', { sub: 'a', exp: Math.floor(Date.now() / 1000) - 60 });
    expect(cache.get('old')).toBeUndefined();
  });
});
