/** How many requests a bulk action keeps in flight at once. */
export const BULK_CONCURRENCY = 4;

export interface BulkOutcome<Item> {
  done: Item[];
  failed: { item: Item; error: unknown }[];
}

/**
 * Runs `work` on every item, at most `limit` at a time, and says which succeeded and which failed (a
 * failure does not stop the others). `onProgress` learns how many have finished, after each one.
 */
export async function runBounded<Item>(
  items: readonly Item[],
  work: (item: Item) => Promise<unknown>,
  onProgress: (finished: number) => void = () => undefined,
  limit = BULK_CONCURRENCY,
): Promise<BulkOutcome<Item>> {
  const outcome: BulkOutcome<Item> = { done: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as Item;
      next += 1;
      try {
        await work(item);
        outcome.done.push(item);
      } catch (error) {
        outcome.failed.push({ item, error });
      }
      onProgress(outcome.done.length + outcome.failed.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcome;
}
