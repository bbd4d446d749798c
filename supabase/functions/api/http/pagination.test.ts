import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import { encodeCursor } from './cursor.ts';
import { nextPageReference, pageParameters } from './pagination.ts';

const Query = z.strictObject({ ...pageParameters(CreatedAtIdKey) });
const KEY = ['2026-11-22T12:00:00.5+00:00', '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e'];

describe('page parameters', () => {
  it('default the limit and leave the cursor out', () => {
    expect(Query.parse({})).toEqual({ limit: 50 });
  });

  it('decode the cursor to its sort key', () => {
    expect(Query.parse({ limit: '200', cursor: encodeCursor(KEY) })).toEqual({ limit: 200, cursor: KEY });
  });

  it.each(['0', '201', '-1', '1.5', '1e2', ' 5', ''])('refuse limit=%j', (limit) => {
    expect(Query.safeParse({ limit }).success).toBe(false);
  });

  it('refuse a cursor that is no cursor, with the reason as the message', () => {
    const result = Query.safeParse({ cursor: 'abc+' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['cursor'],
        message: 'is not a cursor this list issued: it is not base64url',
      }),
    ]);
  });
});

describe('the next page reference', () => {
  it('is a query-only reference that keeps every other parameter', () => {
    const reference = nextPageReference(
      'http://internal:9000/api/v1/things?status=open&limit=10&q=a+b',
      'NEXT',
    );
    expect(reference).toBe('?status=open&limit=10&q=a+b&cursor=NEXT');
    // Resolved against the address the client used, whatever prefix the gateway serves the API under.
    const resolved = new URL(
      reference,
      'https://x.supabase.co/functions/v1/api/v1/things?status=open&limit=10&q=a+b',
    );
    expect(resolved.pathname).toBe('/functions/v1/api/v1/things');
    expect(Object.fromEntries(resolved.searchParams)).toEqual({
      status: 'open',
      limit: '10',
      q: 'a b',
      cursor: 'NEXT',
    });
  });

  it('replaces the cursor the request had', () => {
    expect(nextPageReference('http://h/api/v1/things?cursor=OLD&limit=5', 'NEW')).toBe('?cursor=NEW&limit=5');
  });
});
