import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { taskKeys } from './query-keys.ts';

type Comment = components['schemas']['Comment'];

/** PATCH /v1/comments/{id} with `If-Match`: its author edits the body; the thread is read again after. */
export function useUpdateComment(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ comment, body }: { comment: Comment; body: string }) =>
      unwrap(
        api.PATCH('/v1/comments/{id}', {
          params: { path: { id: comment.id }, header: ifMatch(comment) },
          body: { body },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.comments(taskId) }),
  });
}
