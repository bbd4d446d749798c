/**
 * The list view's selection, as Gmail and Linear keep it: a click toggles one row and makes it the anchor;
 * a shift-click selects every row between the anchor and the one clicked (in the list's order), the
 * anchor staying put. Pure, so that the rules are tested without a screen.
 */
export interface ListSelection {
  selected: ReadonlySet<string>;
  /** The row the last plain click toggled: where a shift-click's range starts. */
  anchor: string | null;
}

export const NO_SELECTION: ListSelection = { selected: new Set(), anchor: null };

/** The selection after a click on `id`'s checkbox, with shift held or not; `ids` is the list in order. */
export function clickedRow(
  selection: ListSelection,
  ids: readonly string[],
  id: string,
  shift: boolean,
): ListSelection {
  const range = shift && selection.anchor !== null ? rangeBetween(ids, selection.anchor, id) : [];
  if (range.length > 0) {
    const selected = new Set(selection.selected);
    for (const each of range) selected.add(each);
    return { selected, anchor: selection.anchor };
  }
  const selected = new Set(selection.selected);
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  return { selected, anchor: id };
}

/** The ids from `from` to `to`, both included, whichever comes first; none if either is not listed. */
export function rangeBetween(ids: readonly string[], from: string, to: string): string[] {
  const start = ids.indexOf(from);
  const end = ids.indexOf(to);
  if (start === -1 || end === -1) return [];
  return ids.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/** Every row selected, or none if all already were (the header's checkbox). */
export function toggledAll(selection: ListSelection, ids: readonly string[]): ListSelection {
  const all = ids.length > 0 && ids.every((id) => selection.selected.has(id));
  return all ? NO_SELECTION : { selected: new Set(ids), anchor: null };
}

/** The selected ids still in the list, in its order: a task that vanished is no longer selected. */
export function selectedIn(selection: ListSelection, ids: readonly string[]): string[] {
  return ids.filter((id) => selection.selected.has(id));
}
