import { describe, expect, it } from 'vitest';
import { pageOffset, pageParams, paginationHeaders } from './pagination.ts';

const url = (query: string) => new URL(`http://auth.local/admin/users${query}`);

describe('admin pagination', () => {
  it('reads page and per_page, with defaults for missing or empty values', () => {
    expect(pageParams(url(''))).toEqual({ page: 1, perPage: 50 });
    expect(pageParams(url('?page=&per_page='))).toEqual({ page: 1, perPage: 50 });
    expect(pageParams(url('?page=3&per_page=20'))).toEqual({ page: 3, perPage: 20 });
    expect(pageOffset({ page: 3, perPage: 20 })).toBe(40);
    expect(() => pageParams(url('?page=-1'))).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => pageParams(url('?per_page=0'))).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('links the next and last pages as GoTrue does, query keys sorted', () => {
    expect(paginationHeaders(url('?per_page=2&page=1'), { page: 1, perPage: 2 }, 5)).toEqual({
      Link: '</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=3&per_page=2>; rel="last"',
      'X-Total-Count': '5',
    });
    expect(paginationHeaders(url(''), { page: 1, perPage: 50 }, 5)).toEqual({
      Link: '</admin/users?page=1>; rel="last"',
      'X-Total-Count': '5',
    });
  });
});
