import type { QueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { taskKeys } from './query-keys.ts';

type Task = components['schemas']['Task'];
type TaskPatch = components['schemas']['UpdateTask'];

/**
 * One task's part of a bulk change (decision 0041): PATCH with only the field changed. Status, priority
 * and assignee go without `If-Match` — the merge patch touches that field alone, so another person's edit
 * of the title must not fail it. Labels are a whole list, written from the one read: with `If-Match`, so a
 * label someone added meanwhile is not lost (`412`, reported as a failure of that task).
 */
export function patchForBulk(task: Task, patch: TaskPatch): Promise<Task> {
  const header = patch.label_ids === undefined ? {} : ifMatch(task);
  return unwrap(api.PATCH('/v1/tasks/{id}', { params: { path: { id: task.id }, header }, body: patch }));
}

/** One task's part of a bulk delete: any version (Undo restores it as it was). */
export async function deleteForBulk(task: Task): Promise<void> {
  await unwrap(api.DELETE('/v1/tasks/{id}', { params: { path: { id: task.id } } }));
}

/** One task's part of a bulk Undo. */
export function restoreForBulk(task: Task): Promise<Task> {
  return unwrap(api.POST('/v1/tasks/{id}/restore', { params: { path: { id: task.id } } }));
}

/** After a bulk action: the board's lists and counts are read again. */
export function afterBulk(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
}
