import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { optimisticUpdate } from '../../../lib/query/optimistic-update.ts';
import { taskKeys } from './query-keys.ts';

type Task = components['schemas']['Task'];
export type TaskPatch = components['schemas']['UpdateTask'];

export interface UpdateTaskVariables {
  /** The task as the person saw it: its version goes in `If-Match`. */
  task: Task;
  patch: TaskPatch;
}

/**
 * PATCH /v1/tasks/{id} with `If-Match`, shown at once in the task read by key. On `412` the change is
 * rolled back and the task read again, so the panel shows what the other person wrote; the board's lists
 * and counts, and the task's activity, are read again after any change.
 */
export function useUpdateTask(slug: string, taskKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ task, patch }: UpdateTaskVariables) =>
      unwrap(
        api.PATCH('/v1/tasks/{id}', {
          params: { path: { id: task.id }, header: ifMatch(task) },
          body: patch,
        }),
      ),
    ...optimisticUpdate<Task, UpdateTaskVariables>({
      queryKey: taskKeys.byKey(slug, taskKey),
      apply: (task, { patch }) => ({ ...task, ...patch }),
    }),
    onSuccess: (task) => {
      queryClient.setQueryData(taskKeys.byKey(slug, taskKey), task);
      void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
      void queryClient.invalidateQueries({ queryKey: taskKeys.events(task.id) });
    },
  });
}
