import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { PAGE_SIZE } from '@shared/limits.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys, type TaskListFilters } from './query-keys.ts';
import { inSearchSlot } from './search-slots.ts';

export type Task = components['schemas']['Task'];
export interface TaskListPage {
  data: Task[];
  next_cursor: string | null;
}
/** A list as the cache holds it: the pages read so far, in order. */
export type TaskPages = InfiniteData<TaskListPage, unknown>;

/** Cards per request, the API's default page: a column's first screen and a little more. */
export const TASK_PAGE_SIZE = PAGE_SIZE.default;

/** The list behind one board column: the board's filters, that status, in board order. */
export function columnListFilters(
  board: Omit<TaskListFilters, 'status' | 'sort' | 'limit'>,
  status: Task['status'],
): TaskListFilters {
  return { ...board, status, sort: 'position', limit: TASK_PAGE_SIZE };
}

/** GET /v1/workspaces/{slug}/projects/{key}/tasks, page by page through the cursor. */
export function taskListQueryOptions(filters: TaskListFilters) {
  const { slug, key, ...query } = filters;
  return infiniteQueryOptions({
    queryKey: taskKeys.list(filters),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: TaskListPage) => page.next_cursor ?? undefined,
    queryFn: ({ pageParam, signal }) =>
      inSearchSlot(query.q, () =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/projects/{key}/tasks', {
            params: { path: { slug, key }, query: { ...query, cursor: pageParam } },
            signal,
          }),
        ),
      ),
  });
}

/** One list of tasks (a board column, or the list view), with its next page on demand. */
export function useTaskList(filters: TaskListFilters, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...taskListQueryOptions(filters), enabled });
}

/** The tasks of every page read so far, in order. */
export function tasksOf(pages: TaskPages | undefined): Task[] {
  return pages?.pages.flatMap((page) => page.data) ?? [];
}
