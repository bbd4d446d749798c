import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { cachedCard } from '../realtime/cached-tasks.ts';
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

/**
 * The task the URL names, shown at once from the card the board already holds (`placeholderData`: the
 * task is read all the same, and replaces it when it answers). The card is the whole task at a version
 * the API gave, so a change saved from it carries a true `If-Match`: refused with 412 if the task has
 * changed since, as for any stale copy (docs/decisions/0039-drafts-and-the-open-panel.md).
 */
export function useTaskByKey(slug: string, taskKey: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...taskByKeyQueryOptions(slug, taskKey),
    placeholderData: () => cachedCard(queryClient, slug, taskKey),
  });
}
