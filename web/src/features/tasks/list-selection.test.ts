import { describe, expect, it } from 'vitest';
import { clickedRow, NO_SELECTION, rangeBetween, selectedIn, toggledAll } from './list-selection.ts';

const ids = ['a', 'b', 'c', 'd', 'e'];
const click = (selection = NO_SELECTION, id: string, shift = false) => clickedRow(selection, ids, id, shift);

describe('the list selection', () => {
  it('toggles a row on a click, and makes it the anchor', () => {
    const one = click(NO_SELECTION, 'b');
    expect([...one.selected]).toEqual(['b']);
    expect(one.anchor).toBe('b');
    const none = click(one, 'b');
    expect([...none.selected]).toEqual([]);
    expect(none.anchor).toBe('b');
  });

  it('selects the range from the anchor on a shift-click, either way, keeping the anchor', () => {
    const down = click(click(NO_SELECTION, 'b'), 'd', true);
    expect(selectedIn(down, ids)).toEqual(['b', 'c', 'd']);
    expect(down.anchor).toBe('b');
    const up = click(click(NO_SELECTION, 'd'), 'a', true);
    expect(selectedIn(up, ids)).toEqual(['a', 'b', 'c', 'd']);
    const further = click(down, 'e', true);
    expect(selectedIn(further, ids)).toEqual(['b', 'c', 'd', 'e']);
  });

  it('adds a range to what was selected before, and toggles on a shift-click without an anchor', () => {
    const first = click(NO_SELECTION, 'a');
    const range = click(click(first, 'c'), 'e', true);
    expect(selectedIn(range, ids)).toEqual(['a', 'c', 'd', 'e']);
    expect(selectedIn(click(NO_SELECTION, 'c', true), ids)).toEqual(['c']);
  });

  it('toggles a row on a shift-click when the anchor is gone from the list', () => {
    const anchored = { selected: new Set(['x']), anchor: 'x' };
    expect(selectedIn(click(anchored, 'c', true), ids)).toEqual(['c']);
    expect(rangeBetween(ids, 'x', 'c')).toEqual([]);
  });

  it('selects every row from the header, or none when all were', () => {
    const all = toggledAll(click(NO_SELECTION, 'a'), ids);
    expect(selectedIn(all, ids)).toEqual(ids);
    expect(selectedIn(toggledAll(all, ids), ids)).toEqual([]);
    expect(selectedIn(toggledAll(NO_SELECTION, []), [])).toEqual([]);
  });

  it('drops the tasks that vanished from the list', () => {
    const three = click(click(NO_SELECTION, 'a'), 'c', true);
    expect(selectedIn(three, ['a', 'c', 'z'])).toEqual(['a', 'c']);
  });
});
