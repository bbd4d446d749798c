import { describe, expect, it } from 'vitest';
import { everyPage } from './every-page.ts';

describe('everyPage', () => {
  it('follows the cursor until the last page', async () => {
    const pages: Record<string, { data: number[]; next_cursor: string | null }> = {
      start: { data: [1, 2], next_cursor: 'b' },
      b: { data: [3], next_cursor: 'c' },
      c: { data: [], next_cursor: null },
    };
    const asked: (string | undefined)[] = [];
    const items = await everyPage(async (cursor) => {
      asked.push(cursor);
      const page = pages[cursor ?? 'start'];
      if (!page) throw new Error(`no page ${cursor}`);
      return page;
    });
    expect(items).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'b', 'c']);
  });
});
