/**
 * Rate limits, kept in Postgres: per IP address for requests without valid credentials, per user or
 * API token for the rest, shared by every app instance on the database. Each test calls from IP
 * addresses of its own (X-Forwarded-For) and with users of its own, so buckets never overlap.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEnv, RateLimits } from '../../supabase/functions/api/app-env.ts';
import { jsonWithETag } from '../../supabase/functions/api/http/conditional.ts';
import { createTestApp, useTestApp, type TestApp } from '../support/api-app.ts';
import { callApi, callTestRoute, problemOf, type ApiResponse } from '../support/api-request.ts';
import { createTestUser, withBearer } from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

const routes = new Hono<AppEnv>().get('/test-versioned', (c) =>
  jsonWithETag(c, { object: 'test_versioned', version: 1 }),
);

const api = useTestApp({ extraRoutes: routes });

const instances: TestApp[] = [];
/** Another instance of the API on the same database, with limits small enough to reach. */
function instanceWith(rateLimits: RateLimits, connectionAddress?: () => string): TestApp {
  const instance = createTestApp(api.databaseUrl, { extraRoutes: routes, rateLimits, connectionAddress });
  instances.push(instance);
  return instance;
}
afterAll(() => Promise.all(instances.map((instance) => instance.close())));

let addresses = 0;
/** An address no other test uses, from TEST-NET-3. */
const newAddress = () => `203.0.113.${(addresses += 1)}`;

/** A request from `address` as the gateway passes it on: after whatever the client wrote, the address it saw. */
const from = (address: string, init: RequestInit = {}, forged = '10.0.0.1'): RequestInit => {
  const headers = new Headers(init.headers);
  headers.set('X-Forwarded-For', `${forged}, ${address}`);
  return { ...init, headers };
};

/** An address anyone could write, from TEST-NET-1. */
const forgedAddress = () => `192.0.2.${Math.floor(Math.random() * 254) + 1}`;

/**
 * Windows are fixed minutes of the database's clock: when fewer than `seconds` are left in this one,
 * waits for the next, so that a test's requests all fall in one window.
 */
async function awaitRoomInWindow(seconds: number): Promise<void> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ left: number }>('select 60 - extract(epoch from now())::numeric % 60 as left'),
  );
  const left = Number(row?.left ?? 60);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, (left + 0.2) * 1000));
}

function rateLimitOf(response: ApiResponse): { policy: string | null; remaining: number; reset: number } {
  const match = /^"(user|ip)";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`no RateLimit header: ${response.headers.get('ratelimit')}`);
  return { policy: match[1] ?? null, remaining: Number(match[2]), reset: Number(match[3]) };
}

function expectRateLimited(response: ApiResponse, policy: 'user' | 'ip', quota: number): void {
  expect(response.status).toBe(429);
  expect(problemOf(response).code).toBe('rate_limited');
  expect(response.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${quota};w=60`);
  const { remaining, reset } = rateLimitOf(response);
  expect(remaining).toBe(0);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  expect(response.headers.get('retry-after')).toBe(String(reset));
}

describe('the per-IP limit, at its production value', () => {
  it(
    'answers the 61st anonymous request in a minute with 429 and Retry-After',
    { timeout: 40_000 },
    async () => {
      await awaitRoomInWindow(10);
      const address = newAddress();
      for (let request = 1; request <= 60; request += 1) {
        const response = await callApi(api.app, '/api/v1/health', from(address));
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-policy')).toBe('"ip";q=60;w=60');
        expect(rateLimitOf(response).remaining).toBe(60 - request);
      }
      const refused = await callApi(api.app, '/api/v1/health', from(address));
      expectRateLimited(refused, 'ip', 60);
      // Another address is a bucket of its own.
      expect((await callApi(api.app, '/api/v1/meta/limits', from(newAddress()))).status).toBe(200);
    },
  );
});

describe('per principal and per IP', () => {
  it('are separate: one running out leaves the other as it was', { timeout: 40_000 }, async () => {
    await awaitRoomInWindow(10);
    const instance = instanceWith({ user: 5, ip: 3 });
    const address = newAddress();
    const ada = await createTestUser(api.db);
    const grace = await createTestUser(api.db);
    const me = (token: string) => callApi(instance.app, '/api/v1/me', from(address, withBearer(token)));
    const anonymous = () => callApi(instance.app, '/api/v1/meta/limits', from(address));

    for (let request = 1; request <= 3; request += 1) expect((await anonymous()).status).toBe(200);
    expectRateLimited(await anonymous(), 'ip', 3);

    for (let request = 1; request <= 5; request += 1) {
      const response = await me(ada.accessToken);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"user";q=5;w=60');
      expect(rateLimitOf(response).remaining).toBe(5 - request);
    }
    expectRateLimited(await me(ada.accessToken), 'user', 5);
    // Grace, from the same address, has her own budget.
    expect((await me(grace.accessToken)).status).toBe(200);
  });

  it(
    'count refused credentials against the IP, then answer them 429 instead of 401',
    { timeout: 40_000 },
    async () => {
      await awaitRoomInWindow(10);
      const instance = instanceWith({ user: 5, ip: 3 });
      const address = newAddress();
      const ada = await createTestUser(api.db);
      const me = (token: string) => callApi(instance.app, '/api/v1/me', from(address, withBearer(token)));

      for (let request = 1; request <= 3; request += 1) {
        const refused = await me('not-a-token');
        expect(refused.status).toBe(401);
        expect(rateLimitOf(refused)).toMatchObject({ policy: 'ip', remaining: 3 - request });
      }
      const limited = await me('not-a-token');
      expectRateLimited(limited, 'ip', 3);
      expect(limited.headers.get('www-authenticate')).toBeNull();
      expectRateLimited(await callApi(instance.app, '/api/v1/me', from(address)), 'ip', 3);
      // A valid credential is never held back by its address.
      const valid = await me(ada.accessToken);
      expect(valid.status).toBe(200);
      expect(rateLimitOf(valid).policy).toBe('user');
    },
  );

  it(
    'are both counted in Postgres, so two instances of the API share them',
    { timeout: 40_000 },
    async () => {
      await awaitRoomInWindow(10);
      const first = instanceWith({ user: 4, ip: 4 });
      const second = instanceWith({ user: 4, ip: 4 });
      const address = newAddress();
      const ada = await createTestUser(api.db);
      const both = [first, second, first, second];
      for (const [index, instance] of both.entries()) {
        const anonymous = await callApi(instance.app, '/api/v1/health', from(address));
        expect(rateLimitOf(anonymous).remaining).toBe(3 - index);
        const signedIn = await callApi(
          instance.app,
          '/api/v1/me',
          from(address, withBearer(ada.accessToken)),
        );
        expect(rateLimitOf(signedIn).remaining).toBe(3 - index);
      }
      expectRateLimited(await callApi(first.app, '/api/v1/health', from(address)), 'ip', 4);
      expectRateLimited(await callApi(second.app, '/api/v1/me', withBearer(ada.accessToken)), 'user', 4);
    },
  );
});

describe('conditional GETs answered 304', () => {
  it('are not counted', { timeout: 40_000 }, async () => {
    await awaitRoomInWindow(10);
    const instance = instanceWith({ user: 3, ip: 3 });
    const ada = await createTestUser(api.db);
    const get = (headers: Record<string, string> = {}) =>
      callTestRoute(instance.app, '/api/v1/test-versioned', withBearer(ada.accessToken, { headers }));

    const full = await get();
    expect(full.status).toBe(200);
    expect(rateLimitOf(full).remaining).toBe(2);
    for (let request = 1; request <= 10; request += 1) {
      const notModified = await get({ 'If-None-Match': '"1"' });
      expect(notModified.status).toBe(304);
      expect(rateLimitOf(notModified).remaining).toBe(2);
    }
    expect(rateLimitOf(await get()).remaining).toBe(1);
    expect(rateLimitOf(await get()).remaining).toBe(0);
    expectRateLimited(await get(), 'user', 3);
  });
});

describe('the headers', () => {
  it(
    'are on error answers: a bad query (400), an unknown path (404), a wrong method (405)',
    { timeout: 40_000 },
    async () => {
      await awaitRoomInWindow(5);
      const address = newAddress();
      const answers = [
        await callApi(api.app, '/api/v1/health?verbose=1', from(address)),
        await callApi(api.app, '/api/v1/nothing-here', from(address)),
        await callApi(api.app, '/api/v1/health', from(address, { method: 'DELETE' })),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([400, 404, 405]);
      expect(answers.map((answer) => rateLimitOf(answer))).toEqual([
        expect.objectContaining({ policy: 'ip', remaining: 59 }),
        expect.objectContaining({ policy: 'ip', remaining: 58 }),
        expect.objectContaining({ policy: 'ip', remaining: 57 }),
      ]);
    },
  );

  it('are left out, and the request is served, when the counters cannot be reached', async () => {
    const unreachable = createTestApp('postgres://postgres@127.0.0.1:1/nowhere');
    instances.push(unreachable);
    const response = await unreachable.app.request('/api/v1/meta/limits');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(unreachable.logs.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'request not counted for rate limits: database unavailable',
      }),
    );
  });
});

describe('the client address', () => {
  it(
    'is the one the gateway appended: forging X-Forwarded-For entries before it picks no new bucket',
    { timeout: 40_000 },
    async () => {
      await awaitRoomInWindow(10);
      const instance = instanceWith({ user: 600, ip: 3 });
      const address = newAddress();
      const statuses: number[] = [];
      for (let request = 0; request < 10; request += 1) {
        const forged = Array.from({ length: request % 3 }, forgedAddress)
          .concat(forgedAddress())
          .join(', ');
        const response = await callApi(instance.app, '/api/v1/health', from(address, {}, forged));
        statuses.push(response.status);
        if (response.status === 429) expectRateLimited(response, 'ip', 3);
      }
      expect(statuses).toEqual([200, 200, 200, ...Array<number>(7).fill(429)]);
    },
  );

  it('is one bucket for a whole IPv6 /64, which one subscriber holds', { timeout: 40_000 }, async () => {
    await awaitRoomInWindow(10);
    const instance = instanceWith({ user: 600, ip: 3 });
    const prefix = `2001:db8:${(addresses += 1).toString(16)}:1`;
    const statuses: number[] = [];
    for (let host = 1; host <= 5; host += 1) {
      statuses.push((await callApi(instance.app, '/api/v1/health', from(`${prefix}::${host}`))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const elsewhere = await callApi(
      instance.app,
      '/api/v1/health',
      from(`2001:db8:${addresses.toString(16)}:2::1`),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('is the entry the trusted proxies name, and is logged at debug level with what it came from', async () => {
    const address = newAddress();
    const instance = createTestApp(api.databaseUrl, {
      trustedProxyHops: 2,
      connectionAddress: () => '192.0.2.250',
    });
    instances.push(instance);
    const forwardedFor = `10.0.0.1, ${address}, 198.51.100.1`;
    const response = await callApi(instance.app, '/api/v1/health', {
      headers: { 'X-Forwarded-For': forwardedFor, 'X-Real-IP': '198.51.100.9' },
    });
    expect(response.status).toBe(200);
    const [counter] = await asService(api.db, (sql) =>
      sql.query<{ hits: number }>('select hits from private.rate_limit_counters where bucket = $1', [
        `ip:${address}`,
      ]),
    );
    expect(counter?.hits).toBe(1);
    expect(instance.logs.entries).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        msg: 'client address',
        x_forwarded_for: forwardedFor,
        x_real_ip: '198.51.100.9',
        connection_address: '192.0.2.250',
        trusted_proxy_hops: 2,
        client_address: address,
      }),
    );
  });

  it('is the connection address when X-Forwarded-For names none', async () => {
    const connection = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const instance = instanceWith({ user: 600, ip: 60 }, () => connection);
    await callApi(instance.app, '/api/v1/health', { headers: { 'X-Forwarded-For': 'garbage' } });
    await callApi(instance.app, '/api/v1/health');
    const [counter] = await asService(api.db, (sql) =>
      sql.query<{ hits: number }>('select hits from private.rate_limit_counters where bucket = $1', [
        `ip:${connection}`,
      ]),
    );
    expect(counter?.hits).toBe(2);
  });
});

describe('stale counters', () => {
  it('are deleted by the cleanup function, and current ones kept', async () => {
    const stale = `ip:stale-${randomUUID()}`;
    const current = newAddress();
    await callApi(api.app, '/api/v1/health', from(current));
    await asService(api.db, (sql) =>
      sql.query(
        `insert into private.rate_limit_counters (bucket, window_started_at, hits)
         values ($1, now() - interval '2 hours', 7)`,
        [stale],
      ),
    );
    await asService(api.db, (sql) => sql.query('select private.delete_stale_rate_limit_counters(3600)'));
    const buckets = await asService(api.db, (sql) =>
      sql.query<{ bucket: string }>('select bucket from private.rate_limit_counters where bucket = any($1)', [
        [stale, `ip:${current}`],
      ]),
    );
    expect(buckets.map((row) => row.bucket)).toEqual([`ip:${current}`]);
  });

  it('are out of reach of the API roles', async () => {
    const ada = await createTestUser(api.db);
    await expect(
      api.db.asCaller(ada.principal, (sql) => sql.query('select * from private.rate_limit_counters')),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      api.db.asCaller(ada.principal, (sql) => sql.query("select * from private.count_request('x', 60)")),
    ).rejects.toMatchObject({ code: '42501' });
  });
});
