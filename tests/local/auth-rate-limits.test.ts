import { describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';

/** GoTrue's burst: a fresh bucket admits this many requests at once, whatever the rate. */
const BURST = 30;

describe('per-IP rate limits, as GoTrue applies them', () => {
  // One verification per 5 minutes: once the burst is spent, nothing refills during the test.
  const standIn = useStandIn({ TASKLANE_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '1' });

  function verify(forwardedFor?: string): Promise<Response> {
    return standIn.callAuth('/verify', {
      method: 'POST',
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      body: { token_hash: 'f'.repeat(56), type: 'recovery' },
    });
  }

  test('after the burst, /verify answers 429 over_request_rate_limit, per client address', async () => {
    const statuses: number[] = [];
    for (let request = 0; request < BURST; request += 1) statuses.push((await verify()).status);
    expect(statuses).toEqual(Array<number>(BURST).fill(403));

    const limited = await verify();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-sb-error-code')).toBe('over_request_rate_limit');
    expect(await limited.json()).toEqual({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    const viaClient = await standIn.client().auth.verifyOtp({
      token_hash: 'f'.repeat(56),
      type: 'recovery',
    });
    expect(viaClient.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const link = await fetch(`${standIn.process.apiUrl}/auth/v1/verify?token=abc&type=recovery`, {
      redirect: 'manual',
    });
    expect(link.status).toBe(429);

    // The first X-Forwarded-For entry is the client: another address has a bucket of its own.
    expect((await verify('203.0.113.7, 127.0.0.1')).status).toBe(403);
    expect((await verify('203.0.113.8')).status).toBe(403);
  });

  test('a spent /verify bucket does not limit the other endpoints', async () => {
    const response = await fetch(`${standIn.process.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: standIn.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
    });
    expect(response.status).toBe(400);
  });
});
