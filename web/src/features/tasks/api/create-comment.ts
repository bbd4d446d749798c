import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys } from './query-keys.ts';

/** POST /v1/tasks/{id}/comments; the thread and the activity are read again after. */
export function useCreateComment(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      unwrap(api.POST('/v1/tasks/{id}/comments', { params: { path: { id: taskId } }, body: { body } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.comments(taskId) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.events(taskId) });
    },
  });
}
