import type { QueryKey } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { projectKeyOf } from '../task-key.ts';
import type { TaskCounts } from './count-tasks.ts';
import type { Task, TaskPages } from './list-tasks.ts';

export type MoveTaskBody = components['schemas']['MoveTask'];

/** A move as the cache sees it: what moveTask's optimistic update writes before the API answers. */
export interface TaskMove {
  task: Task;
  body: MoveTaskBody;
  /** The cached lists of the column the card leaves and the one it enters (the same one for a reorder). */
  fromList: QueryKey;
  toList: QueryKey;
  /** The cached column counts of the board. */
  counts: QueryKey;
}

/** A column's pages with the move applied: the card leaves it, and enters it at its new place if it is this one. */
export function applyMove(pages: TaskPages, move: TaskMove, columnStatus: string): TaskPages {
  const moved: Task = { ...move.task, status: move.body.status };
  const without = pages.pages.map((page) => ({ ...page, data: page.data.filter((t) => t.id !== moved.id) }));
  if (columnStatus !== move.body.status) return { ...pages, pages: without };
  const { after_id: afterId, before_id: beforeId } = move.body;
  const neighbour = afterId ?? beforeId;
  const inserted = without.map((page) => {
    const at = neighbour ? page.data.findIndex((t) => t.id === neighbour) : -1;
    if (at < 0) return page;
    const data = [...page.data];
    data.splice(afterId ? at + 1 : at, 0, moved);
    return { ...page, data };
  });
  const last = inserted.at(-1);
  // At the end of the column: shown only when the column's last page is here; otherwise it comes with it.
  if (neighbour || !last || last.next_cursor !== null) return { ...pages, pages: inserted };
  return { ...pages, pages: [...inserted.slice(0, -1), { ...last, data: [...last.data, moved] }] };
}

/** The counts with one card carried from its column to another. */
export function applyMoveToCounts(counts: TaskCounts, move: TaskMove): TaskCounts {
  return carryInCounts(counts, move.task, move.body.status);
}

/**
 * The counts with `task` carried from its status to `to`: in the statuses, and in its project's share.
 * The same counts when the status is the same.
 */
export function carryInCounts(counts: TaskCounts, task: Task, to: Task['status']): TaskCounts {
  const from = task.status;
  if (from === to) return counts;
  const carry = (byStatus: TaskCounts['by_status']) => ({
    ...byStatus,
    [from]: byStatus[from] - 1,
    [to]: byStatus[to] + 1,
  });
  const projectKey = projectKeyOf(task.key);
  return {
    ...counts,
    by_status: carry(counts.by_status),
    by_project: counts.by_project.map((share) =>
      share.project_key === projectKey ? { ...share, by_status: carry(share.by_status) } : share,
    ),
  };
}
