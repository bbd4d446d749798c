import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { OPEN_TASK_STATUSES } from '../task-status-groups.ts';
import { taskKeys, type WorkspaceTaskListQuery } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/tasks: the first page of the workspace's tasks that pass the filters. */
export function workspaceTasksQueryOptions(slug: string, query: WorkspaceTaskListQuery) {
  return queryOptions({
    queryKey: taskKeys.workspaceList(slug, query),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/workspaces/{slug}/tasks', { params: { path: { slug }, query }, signal })),
  });
}

/** "My open tasks": assigned to the caller, not done or canceled, soonest due first. */
export const MY_OPEN_TASKS = {
  assignee: 'me',
  status: OPEN_TASK_STATUSES.join(','),
  sort: 'due_date',
  limit: 20,
} as const satisfies WorkspaceTaskListQuery;

export function useWorkspaceTasks(slug: string, query: WorkspaceTaskListQuery) {
  return useQuery(workspaceTasksQueryOptions(slug, query));
}
