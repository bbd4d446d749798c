import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import type { Task } from '../../api/list-tasks.ts';

/** What a refused move tells the person; the card is back where it was when this shows. */
export function moveErrorMessage(task: Task, error: unknown): string {
  if (error instanceof ApiError && error.status === 412) {
    return `Someone changed ${task.key} first — the board now shows their change.`;
  }
  return `${task.key} was not moved: ${describeError(error)}`;
}
