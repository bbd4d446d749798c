import type { Task } from '../../api/list-tasks.ts';
import type { MoveTaskBody } from '../../api/move-cache.ts';
import { type TaskStatus } from '../task-meta/status.tsx';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import { moveWithin, placementOf } from './move-placement.ts';

/** The cards of every column while a drag rearranges them. */
export type Columns = Readonly<Record<TaskStatus, readonly Task[]>>;

/** Where `id` is: a card's column and index, or, for a column itself (`column:todo`), its end. */
function locate(columns: Columns, id: string): { status: TaskStatus; index: number } | null {
  if (id.startsWith('column:')) {
    const status = id.slice('column:'.length) as TaskStatus;
    return status in columns ? { status, index: columns[status].length } : null;
  }
  for (const status of TASK_STATUSES) {
    const index = columns[status].findIndex((task) => task.id === id);
    if (index >= 0) return { status, index };
  }
  return null;
}

/**
 * The columns once the dragged card passes over another column's card (or its empty space): it joins
 * that column at that place, so the column opens a gap for it. Within a column, dnd-kit's sortable
 * strategy shows the new order by itself; the columns stay as they are.
 */
export function dragOver(columns: Columns, activeId: string, overId: string): Columns {
  const from = locate(columns, activeId);
  const to = locate(columns, overId);
  if (!from || !to || from.status === to.status) return columns;
  const task = columns[from.status][from.index];
  if (!task) return columns;
  const target = [...columns[to.status]];
  target.splice(to.index, 0, task);
  return {
    ...columns,
    [from.status]: columns[from.status].filter((t) => t.id !== activeId),
    [to.status]: target,
  };
}

/**
 * Where the card lands when dropped over `overId`: the moveTask body, or null when it is back exactly
 * where it started (`original` is the column it was picked up from, as it was).
 */
export function dropOf(
  columns: Columns,
  active: Task,
  overId: string,
  original: readonly Task[],
): { body: MoveTaskBody; ids: string[] } | null {
  const from = locate(columns, active.id);
  if (!from) return null;
  const to = locate(columns, overId);
  let ids = columns[from.status].map((task) => task.id);
  if (to && to.status === from.status && !overId.startsWith('column:'))
    ids = moveWithin(ids, from.index, to.index);
  const unchanged =
    from.status === active.status &&
    ids.length === original.length &&
    ids.every((id, index) => original[index]?.id === id);
  if (unchanged) return null;
  return { body: placementOf(ids, active.id, from.status), ids };
}
