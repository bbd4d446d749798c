/**
 * The answer of countProjectTasks and countWorkspaceTasks (`TaskCounts`), from the rows of
 * selectTaskCounts: a count per project and status, every project of the scope at least once.
 */
import type { TaskCounts } from '../../_shared/api-types.ts';
import { TASK_STATUSES } from './tasks.schemas.ts';
import type { TaskCountRow } from './tasks.queries.ts';

type ByStatus = TaskCounts['by_status'];

const noTasks = (): ByStatus => Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as ByStatus;

const totalOf = (byStatus: ByStatus): number =>
  TASK_STATUSES.reduce((total, status) => total + byStatus[status], 0);

/** The counts, every status present; `by_project` in the rows' order (by key). */
export function taskCountsOf(rows: readonly TaskCountRow[]): TaskCounts {
  const byProject = new Map<string, ByStatus>();
  const byStatus = noTasks();
  for (const { project_key: key, status, count } of rows) {
    const counts = byProject.get(key) ?? noTasks();
    byProject.set(key, counts);
    if (status === null) continue;
    counts[status] += count;
    byStatus[status] += count;
  }
  return {
    object: 'task_counts',
    total: totalOf(byStatus),
    by_status: byStatus,
    by_project: [...byProject].map(([key, counts]) => ({
      project_key: key,
      total: totalOf(counts),
      by_status: counts,
    })),
  };
}
