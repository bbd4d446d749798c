import { Hono } from 'hono';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { readJsonBody } from '../../supabase/functions/api/http/json-body.ts';
import { JSON_BODY_MAX_DEPTH } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, callTestRoute, problemOf } from '../support/api-request.ts';
import { createTestUser, withBearer } from '../support/test-users.ts';

const MIB = 1024 * 1024;
const SECRET = 'sk_live_do-not-leak';

// No real write route exists yet, so these test-only routes stand behind the same stack.
const Greeting = z.strictObject({
  name: z.string().min(1).max(80),
  tags: z.array(z.string()).max(3).optional(),
});
const testRoutes = new Hono<AppEnv>()
  .post('/test/greetings', async (c) => c.json(await readJsonBody(c, Greeting), 201))
  .post('/test/pings', (c) => c.body(null, 204))
  .get('/test/boom', () => {
    throw new Error(`select ${SECRET} from private.keys`);
  });

const api = useTestApp({ extraRoutes: testRoutes });

// The test routes stand behind authentication, as every real route but the public ones does.
let accessToken: string;
beforeAll(async () => {
  accessToken = (await createTestUser(api.db)).accessToken;
});
const callAsUser = (path: string, init: RequestInit = {}) =>
  callTestRoute(api.app, path, withBearer(accessToken, init));

const postJson = (body: string, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': contentType },
  body,
});

describe('unknown routes', () => {
  it('answer 404 not_found as a problem whose request id is in the log line for that request', async () => {
    const response = await callApi(api.app, '/api/v1/nope');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = problemOf(response);
    expect(problem).toMatchObject({
      type: 'https://tasklane.dev/problems/not_found',
      title: 'Not found',
      status: 404,
      code: 'not_found',
      detail: 'No route matches /api/v1/nope.',
    });
    expect(api.logs.forRequest(problem.request_id)).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'GET',
        path: '/api/v1/nope',
        status: 404,
      }),
    ]);
  });

  it('answer 404 whatever the body, since no route would read it', async () => {
    const response = await callApi(api.app, '/api/v1/nope', postJson('not json', 'text/plain'));
    expect(response.status).toBe(404);
  });

  it('answer 404 outside the /api base path too', async () => {
    const response = await callApi(api.app, '/v1/health');
    expect(response.status).toBe(404);
    expect(problemOf(response).code).toBe('not_found');
  });
});

describe('a known path with a method it does not have', () => {
  it.each([
    ['DELETE', '/api/v1/health'],
    ['POST', '/api/v1/meta/limits'],
  ])('answers %s %s with 405 and Allow', async (method, path) => {
    const response = await callApi(api.app, path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const problem = problemOf(response);
    expect(problem).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(api.logs.forRequest(problem.request_id)).toEqual([
      expect.objectContaining({ method, status: 405 }),
    ]);
  });

  it('answers 405 whatever the body, since no route would read it', async () => {
    const response = await callApi(api.app, '/api/v1/health', postJson('{"broken":', 'text/plain'));
    expect(response.status).toBe(405);
  });

  it('answers 405 to a bodiless DELETE that arrives with an empty body stream, as on Deno', async () => {
    const empty = new ReadableStream({ start: (controller) => controller.close() });
    const response = await callApi(api.app, '/api/v1/health', {
      method: 'DELETE',
      body: empty,
      duplex: 'half',
    });
    expect(response.status).toBe(405);
  });
});

describe('request ids and the request log', () => {
  it('echo a sane incoming X-Request-Id in the header, the problem and the log', async () => {
    const response = await callApi(api.app, '/api/v1/nope', { headers: { 'X-Request-Id': 'edge-42_ab' } });
    expect(response.headers.get('x-request-id')).toBe('edge-42_ab');
    expect(problemOf(response).request_id).toBe('edge-42_ab');
    expect(api.logs.forRequest('edge-42_ab')).toHaveLength(1);
  });

  it('log one line per request with only the agreed fields: no headers, query or body', async () => {
    const response = await callApi(api.app, `/api/v1/health?token=${SECRET}`, {
      headers: { Authorization: `Bearer ${SECRET}`, 'X-Request-Id': 'log-fields' },
    });
    expect(response.status).toBe(400);
    const [line, ...others] = api.logs.forRequest('log-fields');
    expect(others).toEqual([]);
    expect(Object.keys(line ?? {}).sort()).toEqual(
      ['duration_ms', 'level', 'method', 'msg', 'path', 'request_id', 'status', 'time'].sort(),
    );
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/health', status: 400 });
    expect(JSON.stringify(api.logs.entries)).not.toContain(SECRET);
  });
});

describe('request bodies', () => {
  it('accept a valid JSON body and hand the parsed value to the route', async () => {
    const response = await callAsUser('/api/v1/test/greetings', postJson('{"name":"Ada"}'));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ name: 'Ada' });
  });

  it('accept a +json media type such as JSON Merge Patch', async () => {
    const init = postJson('{"name":"Ada"}', 'application/merge-patch+json; charset=utf-8');
    expect((await callAsUser('/api/v1/test/greetings', init)).status).toBe(201);
  });

  it('let a write without a body through, whatever its content type says', async () => {
    expect((await callAsUser('/api/v1/test/pings', { method: 'POST' })).status).toBe(204);
    const empty = postJson('', 'text/plain');
    expect((await callAsUser('/api/v1/test/pings', empty)).status).toBe(204);
  });

  it('answer 400 when a route needs a body and gets none', async () => {
    const response = await callAsUser('/api/v1/test/greetings', { method: 'POST' });
    expect(response.status).toBe(400);
    expect(problemOf(response).code).toBe('bad_request');
  });

  it('reject malformed JSON with 400 bad_request, even where the route ignores the body', async () => {
    for (const path of ['/api/v1/test/greetings', '/api/v1/test/pings']) {
      const response = await callAsUser(path, postJson('{"name":'));
      expect(response.status).toBe(400);
      expect(problemOf(response)).toMatchObject({
        code: 'bad_request',
        detail: 'The body is not valid JSON.',
      });
    }
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['no content type', undefined],
  ])('reject %s with 415 unsupported_media_type', async (_name, contentType) => {
    const init: RequestInit = { method: 'POST', body: new TextEncoder().encode('{"name":"Ada"}') };
    if (contentType) init.headers = { 'Content-Type': contentType };
    const response = await callAsUser('/api/v1/test/greetings', init);
    expect(response.status).toBe(415);
    expect(problemOf(response).code).toBe('unsupported_media_type');
  });

  it('reject a body over 1 MiB with 413 payload_too_large, whether or not Content-Length announces it', async () => {
    const oversized = JSON.stringify({ name: 'x'.repeat(MIB) });
    const announced = {
      ...postJson(oversized),
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(oversized.length) },
    };
    for (const init of [postJson(oversized), announced]) {
      const response = await callAsUser('/api/v1/test/greetings', init);
      expect(response.status).toBe(413);
      expect(problemOf(response).code).toBe('payload_too_large');
    }
  });

  it('accept a body of exactly 1 MiB (here, to find its field too long)', async () => {
    const envelope = JSON.stringify({ name: '' }).length;
    const body = JSON.stringify({ name: 'x'.repeat(MIB - envelope) });
    expect(body.length).toBe(MIB);
    const response = await callAsUser('/api/v1/test/greetings', postJson(body));
    expect(response.status).toBe(422);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'body.name', code: 'too_long' }),
    ]);
  });

  it('reject unknown, missing and invalid fields with 422 validation_failed naming each one', async () => {
    const body = JSON.stringify({ tags: ['a', 'b', 'c', 'd'], role: 'owner' });
    const response = await callAsUser('/api/v1/test/greetings', postJson(body));
    expect(response.status).toBe(422);
    const problem = problemOf(response);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.map(({ path, code }) => ({ path, code }))).toEqual(
      expect.arrayContaining([
        { path: 'body.name', code: 'required' },
        { path: 'body.tags', code: 'too_many' },
        { path: 'body.role', code: 'unknown_field' },
      ]),
    );
    expect(problem.errors).toHaveLength(3);
  });

  it('reject a body nested more than JSON_BODY_MAX_DEPTH levels with 400, even where the route ignores it', async () => {
    // The object is one level, so `tags` may hold JSON_BODY_MAX_DEPTH - 1 levels of arrays.
    const nested = (levels: number) => `{"tags":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const deepest = await callAsUser('/api/v1/test/greetings', postJson(nested(JSON_BODY_MAX_DEPTH - 1)));
    expect(deepest.status).toBe(422);
    for (const path of ['/api/v1/test/greetings', '/api/v1/test/pings']) {
      const response = await callAsUser(path, postJson(nested(JSON_BODY_MAX_DEPTH)));
      expect(response.status).toBe(400);
      expect(problemOf(response)).toMatchObject({
        code: 'bad_request',
        detail: `The body is nested more than ${JSON_BODY_MAX_DEPTH} levels deep.`,
        errors: [expect.objectContaining({ path: 'body', code: 'too_deep' })],
      });
    }
  });

  it('reject a JSON body that is not an object with 422', async () => {
    const response = await callAsUser('/api/v1/test/greetings', postJson('[1,2]'));
    expect(response.status).toBe(422);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'body', code: 'invalid_type' }),
    ]);
  });
});

describe('an unexpected exception', () => {
  it('answers 500 internal without a word about the cause, and is logged with the request id', async () => {
    const response = await callAsUser('/api/v1/test/boom');
    expect(response.status).toBe(500);
    const problem = problemOf(response);
    expect(problem).toMatchObject({
      code: 'internal',
      title: 'Internal error',
      detail: 'Something went wrong on our side. Quote the request id if you contact us.',
    });
    expect(response.text).not.toMatch(new RegExp(`${SECRET}|select|private|Error|at `));
    expect(api.logs.forRequest(problem.request_id)).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'unexpected error',
        error_message: `select ${SECRET} from private.keys`,
      }),
      expect.objectContaining({ level: 'error', msg: 'request', status: 500 }),
    ]);
  });
});
