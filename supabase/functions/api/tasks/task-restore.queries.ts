/**
 * SQL behind restoring a deleted task: `private.restore_task` holds every rule (the caller may delete it,
 * the project is active and still there, the task is in the trash) and raises the API's code as its hint;
 * this module says each one as the API does. Runs as the caller.
 */
import type { Task } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { TASKS_PER_PROJECT } from '../../_shared/limits.ts';
import { raisedErrorCode, raisedErrorDetail, refusing } from '../../_shared/sql-errors.ts';
import { projectArchived } from '../projects/project-access.ts';

/** Deleted tasks stay restorable this long; then the housekeeping purges them. */
export const DELETED_TASKS_KEPT_DAYS = 30;

/** The task, restored, as the API answers it. */
export async function restoreTask(sql: Sql, id: string): Promise<Task> {
  const [row] = await refusing(
    sql.query<{ task: Task }>('select private.task_json(t) as task from private.restore_task($1) t', [id]),
    restoreRefusal,
  );
  if (!row) throw deletedTaskNotFound();
  return row.task;
}

export function deletedTaskNotFound(): AppError {
  return new AppError(
    'not_found',
    `There is no deleted task with this id in your workspaces: deleted tasks can be restored for ${DELETED_TASKS_KEPT_DAYS} days.`,
  );
}

function restoreRefusal(error: unknown): AppError | undefined {
  const detail = raisedErrorDetail(error);
  switch (raisedErrorCode(error)) {
    case 'not_found':
      return deletedTaskNotFound();
    case 'task_not_deleted':
      return new AppError(
        'task_not_deleted',
        `${detail ?? 'This task'} is not deleted; there is nothing to restore.`,
      );
    case 'mfa_required':
      return new AppError('mfa_required');
    case 'forbidden':
      return new AppError(
        'forbidden',
        `Your role in this workspace (${detail ?? 'viewer'}) does not allow you to restore tasks.`,
      );
    case 'project_deleted':
      return new AppError(
        'project_deleted',
        "This task's project was deleted after the task; the task went with it and cannot be restored.",
      );
    case 'project_archived':
      return projectArchived(detail ?? '');
    case 'limit_reached':
      return new AppError(
        'limit_reached',
        `The task's project already has ${TASKS_PER_PROJECT} tasks, the limit (tasks_per_project). Delete some first.`,
      );
    default:
      return undefined;
  }
}
