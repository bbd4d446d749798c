import { describe, expect, it } from 'vitest';
import { useTestApp, WEB_ORIGIN } from '../support/api-app.ts';
import { callApi } from '../support/api-request.ts';

const api = useTestApp({ allowedOrigins: [WEB_ORIGIN] });

describe('CORS', () => {
  it('lets an allowed origin read the answer and its headers', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits', { headers: { Origin: WEB_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('does not let another origin read the answer', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits', {
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from an allowed origin with 204 and what it may send', async () => {
    const response = await callApi(api.app, '/api/v1/health', {
      method: 'OPTIONS',
      headers: {
        Origin: WEB_ORIGIN,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, content-type, if-match, idempotency-key, x-region',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    const allowed = response.headers.get('access-control-allow-headers')?.split(',') ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'if-match',
        'idempotency-key',
        'x-client-info',
        'apikey',
        'x-region',
        'feed-after',
      ]),
    );
    // Cached, so that a browser reading the change feed (cursor in Feed-After, one URL) asks once.
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThanOrEqual(600);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a preflight from another origin with 204 but no permission', async () => {
    const response = await callApi(api.app, '/api/v1/health', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('regional invocation (docs/deploy.md, step 7)', () => {
  it("leaves the platform's forceFunctionRegion parameter to the platform, and still refuses others", async () => {
    const regional = await callApi(api.app, '/api/v1/meta/limits?forceFunctionRegion=eu-central-1');
    expect(regional.status).toBe(200);
    const typo = await callApi(api.app, '/api/v1/meta/limits?forceFunctionRegon=eu-central-1');
    expect(typo.status).toBe(400);
  });
});
