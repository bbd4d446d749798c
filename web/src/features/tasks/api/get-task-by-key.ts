import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/tasks/{task_key}: the task the URL names (`WEB-12`). */
export function taskByKeyQueryOptions(slug: string, taskKey: string) {
  return queryOptions({
    queryKey: taskKeys.byKey(slug, taskKey),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/workspaces/{slug}/tasks/{task_key}', {
          params: { path: { slug, task_key: taskKey } },
          signal,
        }),
      ),
  });
}

export function useTaskByKey(slug: string, taskKey: string) {
  return useQuery(taskByKeyQueryOptions(slug, taskKey));
}
