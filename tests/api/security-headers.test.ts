/**
 * Every answer says `X-Content-Type-Options: nosniff`, and every answer but the public limits says
 * `Cache-Control: no-store`: success and problem alike, replayed or not, without breaking ETags.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, WEB_ORIGIN } from '../support/api-app.ts';
import { callApi, type ApiResponse } from '../support/api-request.ts';
import { jsonRequest, resourceCalls } from '../support/resource-calls.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';

const api = useTestApp();
const WORKSPACES = '/api/v1/workspaces';
const workspaces = () => resourceCalls(api.app, WORKSPACES);

let ada: TestUser;
beforeAll(async () => {
  ada = await createTestUser(api.db);
});

function expectSecurityHeaders(response: ApiResponse): void {
  expect({
    nosniff: response.headers.get('x-content-type-options'),
    cacheControl: response.headers.get('cache-control'),
  }).toEqual({ nosniff: 'nosniff', cacheControl: 'no-store' });
}

const newWorkspace = () => ({ name: 'Headers', slug: `headers-${randomUUID().slice(0, 8)}` });

describe('an authenticated answer', () => {
  it('is nosniff and no-store on a read, a list and a create', async () => {
    expectSecurityHeaders(await callApi(api.app, '/api/v1/me', withBearer(ada.accessToken)));
    const list = await workspaces().list(ada.accessToken);
    expect(list.status).toBe(200);
    expectSecurityHeaders(list);
    const created = await workspaces().create(ada.accessToken, newWorkspace());
    expect(created.status).toBe(201);
    expectSecurityHeaders(created);
  });

  it('keeps its ETag, and a 304 to If-None-Match is no-store too', async () => {
    const { slug } = newWorkspace();
    expect((await workspaces().create(ada.accessToken, { name: 'Tagged', slug })).status).toBe(201);
    const first = await workspaces().get(ada.accessToken, slug);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expectSecurityHeaders(first);
    const again = await workspaces().get(ada.accessToken, slug, { 'If-None-Match': etag ?? '' });
    expect(again.status).toBe(304);
    expectSecurityHeaders(again);
  });

  it('is nosniff and no-store when replayed for an Idempotency-Key', async () => {
    const body = newWorkspace();
    const key = { 'Idempotency-Key': randomUUID() };
    expect((await workspaces().create(ada.accessToken, body, key)).status).toBe(201);
    const replayed = await workspaces().create(ada.accessToken, body, key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expectSecurityHeaders(replayed);
  });
});

describe('a problem answer', () => {
  it.each([
    ['401 without credentials', () => callApi(api.app, '/api/v1/me')],
    ['404 for an unknown workspace', () => workspaces().get(ada.accessToken, 'no-such-workspace')],
    [
      '400 for an invalid body',
      () => callApi(api.app, WORKSPACES, withBearer(ada.accessToken, jsonRequest('POST', { name: '' }))),
    ],
    ['405 for a method the path lacks', () => callApi(api.app, '/api/v1/me', { method: 'PUT' })],
    ['404 for an unknown path', () => callApi(api.app, '/api/v1/nowhere')],
  ])('is nosniff and no-store: %s', async (_name, call) => {
    const response = await call();
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expectSecurityHeaders(response);
  });
});

describe('the public routes', () => {
  it('health is no-store: it reports the live state, which no cache may answer for', async () => {
    expectSecurityHeaders(await callApi(api.app, '/api/v1/health'));
  });

  it('the limits, the same constants for everyone, are nosniff but may be cached', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBeNull();
  });

  it('a CORS preflight is nosniff as well', async () => {
    const response = await api.app.request('/api/v1/me', {
      method: 'OPTIONS',
      headers: { Origin: WEB_ORIGIN, 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
