import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { taskKeys } from './query-keys.ts';

type Task = components['schemas']['Task'];

/** DELETE /v1/tasks/{id} with `If-Match`; the board's lists and counts are read again after. */
export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (task: Task) =>
      unwrap(api.DELETE('/v1/tasks/{id}', { params: { path: { id: task.id }, header: ifMatch(task) } })),
    onSuccess: (_nothing, task) => {
      queryClient.removeQueries({ queryKey: taskKeys.detail(task.id) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
    },
  });
}
