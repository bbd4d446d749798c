import { PAGE_SIZE } from '@shared/limits.ts';

/** A page of any list of the API: its items and the cursor of the next page, null on the last. */
export interface ListPage<Item> {
  data: Item[];
  next_cursor: string | null;
}

/** The largest page the API serves (`components.parameters.Limit`). */
export const MAX_PAGE_SIZE = PAGE_SIZE.max;

/**
 * Every item of a short, bounded list (a workspace's labels or members), read page by page through the
 * cursor. Long lists (tasks) are paged on screen instead.
 */
export async function everyPage<Item>(
  readPage: (cursor: string | undefined) => Promise<ListPage<Item>>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    items.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}
