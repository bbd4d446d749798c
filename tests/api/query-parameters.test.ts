/**
 * "This route takes no query parameters" is the default (http/query-params.ts): a route that does not
 * declare its query refuses every parameter but the platform's, as a typo would be refused in a body.
 */
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { queryOf } from '../../supabase/functions/api/http/query-params.ts';
import { useTestApp } from '../support/api-app.ts';
import { callTestRoute, problemOf } from '../support/api-request.ts';
import { createTestUser, withBearer } from '../support/test-users.ts';

// A route that says nothing about its query, as a new route would be written, and one that declares it.
const testRoutes = new Hono<AppEnv>()
  .get('/test/plain', (c) => c.json({ ok: true }))
  .get('/test/greeting', queryOf(z.object({ name: z.string().default('you') })), (c) =>
    c.json({ hello: c.var.query.name }),
  );

const api = useTestApp({ extraRoutes: testRoutes });

let accessToken: string;
beforeAll(async () => {
  accessToken = (await createTestUser(api.db)).accessToken;
});
const get = (path: string) => callTestRoute(api.app, path, withBearer(accessToken, {}));

describe('a route that declares no query', () => {
  it('answers without query parameters', async () => {
    const response = await get('/api/v1/test/plain');
    expect([response.status, response.body]).toEqual([200, { ok: true }]);
  });

  it('refuses a query parameter, naming it', async () => {
    const response = await get('/api/v1/test/plain?verbose=1');
    expect(response.status).toBe(400);
    expect(problemOf(response)).toMatchObject({
      code: 'bad_request',
      detail: 'This operation takes no query parameter "verbose".',
      errors: [{ path: 'query.verbose', code: 'unknown_field', message: 'Unknown field "verbose".' }],
    });
  });

  it("leaves the platform's own parameters to the platform", async () => {
    const response = await get('/api/v1/test/plain?forceFunctionRegion=eu-west-1');
    expect([response.status, response.body]).toEqual([200, { ok: true }]);
  });
});

describe('a route that declares its query with queryOf', () => {
  it('reads it, defaults included, into c.var.query', async () => {
    const named = await get('/api/v1/test/greeting?name=Ada&forceFunctionRegion=eu-west-1');
    const unnamed = await get('/api/v1/test/greeting');
    expect([named.body, unnamed.body]).toEqual([{ hello: 'Ada' }, { hello: 'you' }]);
  });

  it('refuses a parameter it does not declare', async () => {
    const response = await get('/api/v1/test/greeting?name=Ada&nmae=Ada');
    expect(response.status).toBe(400);
    expect(problemOf(response)).toMatchObject({
      code: 'bad_request',
      detail: 'This operation takes no query parameter "nmae".',
    });
  });
});

describe('a request no route takes', () => {
  it('is answered 404, whatever its query', async () => {
    const response = await get('/api/v1/test/nothing-here?verbose=1');
    expect(response.status).toBe(404);
  });
});
