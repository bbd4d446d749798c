import type { components } from '@api-spec/schema.d.ts';
import type { MoveTaskBody } from '../../api/move-cache.ts';

type TaskStatus = components['schemas']['TaskStatus'];

/**
 * Where a dropped card lands, as moveTask takes it: right after the card above it in its new column,
 * or, at the top, right before the card below; in an empty column, at its end. One neighbour is enough,
 * and the card above is the one the person saw it land under. `columnIds` is the column's order after
 * the drop, the moved card included.
 */
export function placementOf(columnIds: readonly string[], movedId: string, status: TaskStatus): MoveTaskBody {
  const index = columnIds.indexOf(movedId);
  if (index < 0) throw new Error(`The task ${movedId} is not in the column it was dropped in.`);
  const above = columnIds[index - 1];
  if (above !== undefined) return { status, after_id: above };
  const below = columnIds[index + 1];
  if (below !== undefined) return { status, before_id: below };
  return { status };
}

/** Moves `id` to `toIndex` in its list (dnd-kit's arrayMove, without the dependency on the sortable preset). */
export function moveWithin<T>(items: readonly T[], fromIndex: number, toIndex: number): T[] {
  const next = [...items];
  const [moved] = next.splice(fromIndex, 1);
  if (moved !== undefined) next.splice(toIndex, 0, moved);
  return next;
}
