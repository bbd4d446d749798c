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

  it('hands `{*name}` the rest of the path, slashes kept, decoded', () => {
    const findObject = routeTable({
      'POST /object/sign/{bucket}': 'many',
      'POST /object/sign/{bucket}/{*path}': 'one',
    });
    expect(findObject('POST', '/object/sign/b')).toEqual({ handler: 'many', params: { bucket: 'b' } });
    expect(findObject('POST', '/object/sign/b/a%20folder/f.txt')).toEqual({
      handler: 'one',
      params: { bucket: 'b', path: 'a folder/f.txt' },
    });
    expect(findObject('GET', '/object/sign/b')).toBeNull();
    expect(findObject('POST', '/object/sign/b/%E0%A4%A')).toBeNull();
  });

  it('matches a trailing slash only when told to, as Storage does and GoTrue does not', () => {
    expect(find('GET', '/user/')).toBeNull();
    expect(routeTable({ 'GET /bucket': 'list' }, { trailingSlash: true })('GET', '/bucket/')?.handler).toBe(
      'list',
    );
  });
});
