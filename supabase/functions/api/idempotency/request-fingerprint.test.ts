import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint, type FingerprintedRequest } from './request-fingerprint.ts';

const request: FingerprintedRequest = {
  method: 'POST',
  path: '/api/v1/workspaces',
  query: [],
  body: { name: 'Acme', slug: 'acme', settings: { b: 1, a: [2, 1] } },
};

describe('request fingerprints', () => {
  it('are SHA-256 in hex', async () => {
    expect(await requestFingerprint(request)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignore the order of object keys, at every depth', async () => {
    const reordered = { ...request, body: { settings: { a: [2, 1], b: 1 }, slug: 'acme', name: 'Acme' } };
    expect(await requestFingerprint(reordered)).toBe(await requestFingerprint(request));
  });

  it('ignore the order of distinct query parameters and the case of the method', async () => {
    const a = {
      ...request,
      query: [
        ['b', '2'],
        ['a', '1'],
      ] as const,
    };
    const b = {
      ...request,
      method: 'post',
      query: [
        ['a', '1'],
        ['b', '2'],
      ] as const,
    };
    expect(await requestFingerprint(a)).toBe(await requestFingerprint(b));
  });

  it.each([
    ['method', { method: 'PATCH' }],
    ['path', { path: '/api/v1/workspaces/acme' }],
    ['query', { query: [['dry_run', 'true']] as const }],
    ['body value', { body: { ...(request.body as object), name: 'Acme Inc' } }],
    ['array order', { body: { ...(request.body as object), settings: { a: [1, 2], b: 1 } } }],
    ['number type', { body: { ...(request.body as object), settings: { a: [2, 1], b: '1' } } }],
    ['missing body', { body: null }],
  ])('differ when the %s differs', async (_name, change) => {
    expect(await requestFingerprint({ ...request, ...change })).not.toBe(await requestFingerprint(request));
  });

  it('serialize canonically', () => {
    expect(canonicalJson({ z: [{ y: 1, x: null }], a: 'é' })).toBe('{"a":"é","z":[{"x":null,"y":1}]}');
  });
});
