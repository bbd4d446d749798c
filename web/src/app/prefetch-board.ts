import type { QueryClient } from '@tanstack/react-query';
import { labelsQueryOptions } from '../features/labels/api/list-labels.ts';
import { membersQueryOptions } from '../features/members/api/list-members.ts';
import { projectQueryOptions } from '../features/projects/api/get-project.ts';
import { taskCountsQueryOptions } from '../features/tasks/api/count-tasks.ts';
import { columnListFilters, taskListQueryOptions } from '../features/tasks/api/list-tasks.ts';
import { filtersOf, type BoardSearch } from '../features/tasks/board-search.ts';
import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import { workspaceQueryOptions } from '../features/workspaces/api/get-workspace.ts';

/**
 * Starts every request the board makes while its code is still downloading, instead of after it renders:
 * the project, its people and labels, the column counts and each column's first page, under the filters
 * in the address. Prefetching never throws; the board shows any error itself.
 */
export function prefetchBoard(
  queryClient: QueryClient,
  slug: string,
  key: string,
  search: BoardSearch,
): void {
  void queryClient.prefetchQuery(workspaceQueryOptions(slug));
  void queryClient.prefetchQuery(projectQueryOptions(slug, key));
  void queryClient.prefetchQuery(membersQueryOptions(slug));
  void queryClient.prefetchQuery(labelsQueryOptions(slug));
  if (search.view === 'list') return;
  const board = { slug, key, ...filtersOf(search) };
  void queryClient.prefetchQuery(taskCountsQueryOptions(board));
  for (const status of TASK_STATUSES) {
    void queryClient.prefetchInfiniteQuery(taskListQueryOptions(columnListFilters(board, status)));
  }
}
