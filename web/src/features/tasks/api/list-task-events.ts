import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { taskKeys } from './query-keys.ts';

/** GET /v1/tasks/{id}/events, every page (kept 30 days), oldest first: the task's activity. */
export function taskEventsQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: taskKeys.events(taskId),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/tasks/{id}/events', {
            params: { path: { id: taskId }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useTaskEvents(taskId: string) {
  return useQuery(taskEventsQueryOptions(taskId));
}
