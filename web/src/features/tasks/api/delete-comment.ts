import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys } from './query-keys.ts';

type Comment = components['schemas']['Comment'];

/**
 * DELETE /v1/comments/{id}; the comment keeps its place as deleted. No `If-Match`: deleting is the same
 * whatever the body became since.
 */
export function useDeleteComment(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: Comment) =>
      unwrap(api.DELETE('/v1/comments/{id}', { params: { path: { id: comment.id } } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.comments(taskId) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.events(taskId) });
    },
  });
}
