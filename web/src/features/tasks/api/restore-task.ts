import type { QueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys } from './query-keys.ts';

type Task = components['schemas']['Task'];

/**
 * POST /v1/tasks/{id}/restore: a task deleted moments ago (the toast's Undo) comes back as it was; the
 * board's lists and counts are read again, so its card is back in its place. A plain function rather than
 * a mutation hook: Undo is clicked after the panel that deleted the task has closed.
 */
export async function restoreTask(queryClient: QueryClient, slug: string, task: Task): Promise<Task> {
  const restored = await unwrap(api.POST('/v1/tasks/{id}/restore', { params: { path: { id: task.id } } }));
  queryClient.setQueryData(taskKeys.byKey(slug, restored.key), restored);
  void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
  return restored;
}
