import { describe, expect, test } from 'vitest';
import { CLI_RATE_LIMITS, createRateLimiter } from './rate-limits.ts';

describe('createRateLimiter', () => {
  function limiterAt(start = 0) {
    let now = start;
    const limiter = createRateLimiter(CLI_RATE_LIMITS, () => now);
    return {
      admit: (method: string, path: string, ip = '198.51.100.1') => limiter.admit(method, path, ip),
      wait: (ms: number) => (now += ms),
    };
  }

  function admitted(attempt: () => void): boolean {
    try {
      attempt();
      return true;
    } catch (error) {
      expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      return false;
    }
  }

  test('admits a burst of 30, then refills at the limit per window', () => {
    const { admit, wait } = limiterAt();
    for (let i = 0; i < 30; i += 1) expect(admitted(() => admit('POST', '/recover'))).toBe(true);
    expect(admitted(() => admit('POST', '/recover'))).toBe(false);
    wait(9_999); // 30 per 5 minutes is one every 10 s
    expect(admitted(() => admit('POST', '/recover'))).toBe(false);
    wait(1);
    expect(admitted(() => admit('POST', '/recover'))).toBe(true);
    expect(admitted(() => admit('POST', '/recover'))).toBe(false);
  });

  test('keeps a bucket per endpoint and per address; unlisted endpoints are not limited', () => {
    const { admit } = limiterAt();
    for (let i = 0; i < 30; i += 1) admit('POST', '/signup');
    expect(admitted(() => admit('POST', '/signup'))).toBe(false);
    expect(admitted(() => admit('POST', '/signup', '198.51.100.2'))).toBe(true);
    expect(admitted(() => admit('POST', '/recover'))).toBe(true);
    expect(admitted(() => admit('PUT', '/user'))).toBe(true);
    for (let i = 0; i < 100; i += 1) admit('GET', '/user');
  });

  test('MFA challenge and verify refill per minute, GET and POST /verify share one bucket', () => {
    const { admit, wait } = limiterAt();
    for (let i = 0; i < 30; i += 1) admit('POST', '/factors/abc/challenge');
    expect(admitted(() => admit('POST', '/factors/def/challenge'))).toBe(false);
    expect(admitted(() => admit('POST', '/factors/abc/verify'))).toBe(true);
    wait(4_000); // 15 per minute is one every 4 s
    expect(admitted(() => admit('POST', '/factors/abc/challenge'))).toBe(true);

    for (let i = 0; i < 15; i += 1) admit('GET', '/verify');
    for (let i = 0; i < 15; i += 1) admit('POST', '/verify');
    expect(admitted(() => admit('GET', '/verify'))).toBe(false);
  });
});
