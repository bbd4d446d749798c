import { describe, expect, it } from 'vitest';
import { isOverLimit, rateLimitHeaders, type RateLimitPolicy } from './rate-limit-headers.ts';

const ip: RateLimitPolicy = { name: 'ip', quota: 60, windowSeconds: 60 };
const user: RateLimitPolicy = { name: 'user', quota: 600, windowSeconds: 60 };

describe('rate-limit headers', () => {
  it('announce the policy and what remains, in structured-field syntax', () => {
    expect(rateLimitHeaders({ policy: user, hits: 3, resetsInSeconds: 42 })).toEqual({
      'RateLimit-Policy': '"user";q=600;w=60',
      RateLimit: '"user";r=597;t=42',
    });
  });

  it('count the last allowed request as leaving nothing, without Retry-After', () => {
    const state = { policy: ip, hits: 60, resetsInSeconds: 5 };
    expect(isOverLimit(state)).toBe(false);
    expect(rateLimitHeaders(state)).toEqual({
      'RateLimit-Policy': '"ip";q=60;w=60',
      RateLimit: '"ip";r=0;t=5',
    });
  });

  it('add Retry-After once over the limit, and never go below zero', () => {
    const state = { policy: ip, hits: 75, resetsInSeconds: 17 };
    expect(isOverLimit(state)).toBe(true);
    expect(rateLimitHeaders(state)).toEqual({
      'RateLimit-Policy': '"ip";q=60;w=60',
      RateLimit: '"ip";r=0;t=17',
      'Retry-After': '17',
    });
  });
});
