import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { paletteKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/tasks/{task_key}, for a key typed in the palette (`WEB-12`); null when none. */
export function findTaskQueryOptions(slug: string, taskKey: string | null) {
  return queryOptions({
    queryKey: paletteKeys.taskByKey(slug, taskKey ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/workspaces/{slug}/tasks/{task_key}', {
          params: { path: { slug, task_key: taskKey ?? '' } },
          signal,
        }),
      ),
    enabled: taskKey !== null,
  });
}

export function useFindTask(slug: string, taskKey: string | null) {
  return useQuery(findTaskQueryOptions(slug, taskKey));
}
