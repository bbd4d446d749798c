import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { notificationKeys } from './query-keys.ts';

export type TaskWatchers = components['schemas']['TaskWatchers'];

export const taskWatchersQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: notificationKeys.watchers(taskId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/tasks/{id}/watchers', { params: { path: { id: taskId } }, signal })),
  });

export function useTaskWatchers(taskId: string) {
  return useQuery(taskWatchersQueryOptions(taskId));
}

/** PUT /v1/tasks/{id}/watch or DELETE it; both answer the watchers, which replace the cached ones. */
export function useSetWatching(taskId: string) {
  return useMutation({
    mutationFn: (watching: boolean) => {
      const params = { params: { path: { id: taskId } } };
      return unwrap(
        watching ? api.PUT('/v1/tasks/{id}/watch', params) : api.DELETE('/v1/tasks/{id}/watch', params),
      );
    },
    onSuccess: (watchers, _watching, _context, { client }) =>
      client.setQueryData(notificationKeys.watchers(taskId), watchers),
  });
}
