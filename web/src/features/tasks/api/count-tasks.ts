import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys, type TaskListFilters } from './query-keys.ts';
import { inSearchSlot } from './search-slots.ts';

export type TaskCounts = components['schemas']['TaskCounts'];
export type TaskCountFilters = Omit<TaskListFilters, 'sort' | 'limit'>;

/** GET /v1/workspaces/{slug}/projects/{key}/task-counts: how many tasks pass the filters, per status. */
export function taskCountsQueryOptions(filters: TaskCountFilters) {
  const { slug, key, ...query } = filters;
  return queryOptions({
    queryKey: taskKeys.count(filters),
    queryFn: ({ signal }) =>
      inSearchSlot(query.q, () =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/projects/{key}/task-counts', {
            params: { path: { slug, key }, query },
            signal,
          }),
        ),
      ),
  });
}

export function useTaskCounts(filters: TaskCountFilters) {
  return useQuery(taskCountsQueryOptions(filters));
}
