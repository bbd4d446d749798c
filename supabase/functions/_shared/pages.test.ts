import { describe, expect, it } from 'vitest';
import { pageOf, rowsToFetch, type SortKey } from './pages.ts';

interface Row {
  name: string;
  sort_key: SortKey;
}

const rows = (count: number): Row[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `row ${index}`,
    sort_key: [`t${index}`, `id${index}`],
  }));

describe('pages', () => {
  it('fetch one row more than they show', () => {
    expect(rowsToFetch({ limit: 50 })).toBe(51);
  });

  it('show `limit` rows and continue after the last one shown when there are more', () => {
    const page = pageOf(rows(4), { limit: 3 }, (row) => row.name);
    expect(page).toEqual({ data: ['row 0', 'row 1', 'row 2'], next: ['t2', 'id2'] });
  });

  it('end when the query answered no more than `limit` rows', () => {
    expect(pageOf(rows(3), { limit: 3 }, (row) => row.name)).toEqual({
      data: ['row 0', 'row 1', 'row 2'],
      next: null,
    });
    expect(pageOf([], { limit: 3 }, (row: Row) => row.name)).toEqual({ data: [], next: null });
  });
});
