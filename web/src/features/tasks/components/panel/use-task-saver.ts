import { announce } from '../../../../components/ui/announce.ts';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useUpdateTask, type TaskPatch } from '../../api/update-task.ts';
import type { Task } from './task-context.ts';

/** How a change ended: saved; refused because someone changed the task first (`412`); or refused. */
export type SaveOutcome =
  | { kind: 'saved'; task: Task }
  | { kind: 'conflict' }
  | { kind: 'failed'; error: ApiError | unknown; message: string };

/**
 * Saves one field of a task with `If-Match`, and says how it went instead of throwing, so each field
 * decides how to show a conflict (text fields keep the draft beside the new value). A saved change shows
 * in place: `done` is only told to screen readers, no toast covers the panel.
 */
export function useTaskSaver(slug: string, taskKey: string) {
  const mutation = useUpdateTask(slug, taskKey);
  const save = async (task: Task, patch: TaskPatch, done: string): Promise<SaveOutcome> => {
    try {
      const saved = await mutation.mutateAsync({ task, patch });
      announce(done);
      return { kind: 'saved', task: saved };
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) return { kind: 'conflict' };
      return { kind: 'failed', error, message: describeError(error) };
    }
  };
  return { save, pending: mutation.isPending };
}

/** The field error the API named for `body.<field>`, else the problem's own sentence. */
export function fieldMessage(outcome: SaveOutcome & { kind: 'failed' }, field: string): string {
  if (outcome.error instanceof ApiError) {
    const match = outcome.error.errors.find((e) => e.path === `body.${field}`);
    if (match) return match.message;
  }
  return outcome.message;
}
