import { describe, expect, it } from 'vitest';
import { moveWithin, placementOf } from './move-placement.ts';

describe('placementOf: where a dropped card lands', () => {
  it('goes right after the card above it', () => {
    expect(placementOf(['a', 'b', 'moved', 'c'], 'moved', 'in_progress')).toEqual({
      status: 'in_progress',
      after_id: 'b',
    });
  });

  it('at the top of a column, goes right before the card below it', () => {
    expect(placementOf(['moved', 'a', 'b'], 'moved', 'todo')).toEqual({ status: 'todo', before_id: 'a' });
  });

  it('at the bottom of a column, goes after the last card', () => {
    expect(placementOf(['a', 'b', 'moved'], 'moved', 'done')).toEqual({ status: 'done', after_id: 'b' });
  });

  it('alone in a column, names no neighbour (the end of the column)', () => {
    expect(placementOf(['moved'], 'moved', 'in_review')).toEqual({ status: 'in_review' });
  });

  it('refuses a column the card is not in', () => {
    expect(() => placementOf(['a'], 'moved', 'todo')).toThrow(/not in the column/);
  });
});

describe('moveWithin', () => {
  it('moves an item down and up without changing the original', () => {
    const items = ['a', 'b', 'c', 'd'];
    expect(moveWithin(items, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveWithin(items, 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(items).toEqual(['a', 'b', 'c', 'd']);
  });
});
