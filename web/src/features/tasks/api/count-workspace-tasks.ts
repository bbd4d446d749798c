import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys, type WorkspaceTaskListQuery } from './query-keys.ts';

type CountQuery = Omit<WorkspaceTaskListQuery, 'sort' | 'limit'>;

/** GET /v1/workspaces/{slug}/task-counts: how many tasks pass the filters, per status and per project. */
export function workspaceTaskCountsQueryOptions(slug: string, query: CountQuery = {}) {
  return queryOptions({
    queryKey: taskKeys.workspaceCount(slug, query),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/workspaces/{slug}/task-counts', { params: { path: { slug }, query }, signal })),
  });
}

export function useWorkspaceTaskCounts(slug: string, query: CountQuery = {}) {
  return useQuery(workspaceTaskCountsQueryOptions(slug, query));
}
