import { describe, expect, it } from 'vitest';
import { routeTable } from './route-table.ts';

describe('routeTable', () => {
  const find = routeTable({
    'GET /user': 'user',
    'GET /.well-known/jwks.json': 'jwks',
    'POST /factors/{id}/verify': 'verify',
    'DELETE /factors/{id}': 'unenroll',
  });

  it('matches exact paths, and only with their method', () => {
    expect(find('GET', '/user')).toEqual({ handler: 'user', params: {} });
    expect(find('PUT', '/user')).toBeNull();
    expect(find('GET', '/.well-known/jwks.json')?.handler).toBe('jwks');
    expect(find('GET', '/.well-known/jwksxjson')).toBeNull();
  });

  it('hands `{name}` segments to the handler, decoded, one segment each', () => {
    expect(find('POST', '/factors/abc-123/verify')).toEqual({ handler: 'verify', params: { id: 'abc-123' } });
    expect(find('DELETE', '/factors/a%20b')?.params).toEqual({ id: 'a b' });
    expect(find('DELETE', '/factors/a/b')).toBeNull();
    expect(find('DELETE', '/factors/')).toBeNull();
    expect(find('DELETE', '/factors/%E0%A4%A')).toBeNull();
  });
});
