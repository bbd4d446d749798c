import { describe, expect, it } from 'vitest';
import { runBounded } from './bulk-run.ts';

describe('runBounded', () => {
  it('runs every item, never more than the limit at once, and reports progress', async () => {
    let running = 0;
    let most = 0;
    const progress: number[] = [];
    const outcome = await runBounded(
      Array.from({ length: 10 }, (_, index) => index),
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, item % 3));
        running -= 1;
        if (item === 4 || item === 7) throw new Error(`no ${item}`);
      },
      (finished) => progress.push(finished),
      4,
    );
    expect(most).toBe(4);
    expect([...outcome.done].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 5, 6, 8, 9]);
    expect(outcome.failed.map(({ item, error }) => [item, (error as Error).message]).sort()).toEqual([
      [4, 'no 4'],
      [7, 'no 7'],
    ]);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('answers at once for no items', async () => {
    expect(await runBounded([], () => Promise.reject(new Error('never')))).toEqual({ done: [], failed: [] });
  });
});
