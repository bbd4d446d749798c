import type { Query, QueryClient } from '@tanstack/react-query';
import type { TaskCounts } from '../api/count-tasks.ts';
import type { Task } from '../api/list-tasks.ts';
import { carryInCounts } from '../api/move-cache.ts';
import { taskKeys, type TaskListFilters } from '../api/query-keys.ts';
import { projectKeyOf } from '../task-key.ts';

/**
 * The cached counts after a change written in place (`before` is the task's exact previous version, in
 * the workspace `slug`). A project's counts with nothing filtered out, the board's column counts, carry the
 * card from its old status to its new one without a request; counts of other workspaces and projects stay
 * as they are; any other count (filtered or searched, or a workspace's) is read again, since whether the
 * task passes it is the API's to say. So is a count being read at that moment: its answer may predate the
 * change. (One read that began after the change and ended before the feed told of it would count it
 * twice, until the counts are next read; that window is the few milliseconds of the feed read.)
 */
export function recount(queryClient: QueryClient, slug: string, before: Task, after: Task): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: taskKeys.counts() })) {
    const scope = scopeOf(query, slug, after);
    const counts = query.state.data as TaskCounts | undefined;
    if (scope === 'other') continue;
    if (scope === 'column counts' && counts && query.state.fetchStatus === 'idle') {
      const carried = carryInCounts(counts, before, after.status);
      queryClient.setQueryData(query.queryKey, carried, { updatedAt: query.state.dataUpdatedAt });
    } else {
      void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }
  }
}

/** Which counts a cached count query is, as far as a change to `task` of the workspace `slug` goes. */
function scopeOf(query: Query, slug: string, task: Task): 'column counts' | 'other' | 'filtered' {
  const [, , filters, ...more] = query.queryKey;
  if (more.length > 0 || typeof filters !== 'object' || filters === null) return 'filtered';
  const { slug: countSlug, key, ...narrowing } = filters as Partial<TaskListFilters>;
  if (countSlug !== slug || key !== projectKeyOf(task.key)) return 'other';
  return Object.values(narrowing).every((value) => value === undefined) ? 'column counts' : 'filtered';
}
