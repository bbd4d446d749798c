import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { taskKeys } from './query-keys.ts';

/** GET /v1/tasks/{id}/comments, every page (a task holds at most 1,000), oldest first. */
export function commentsQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: taskKeys.comments(taskId),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/tasks/{id}/comments', {
            params: { path: { id: taskId }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useComments(taskId: string) {
  return useQuery(commentsQueryOptions(taskId));
}
