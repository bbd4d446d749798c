/**
 * SQL for where tasks stand in their columns (docs/product.md#screens's drag and drop): the column's lock,
 * and the move, which `private.move_task` makes whole: its refusals, the lock, the neighbours, the key
 * (fractional-indexing's, in SQL), the rebalance and the version check. Runs as the caller, under the tasks'
 * RLS, like tasks.queries.ts.
 */
import type { Task, TaskStatus } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { raisedErrorCode, raisedErrorDetail, refusing } from '../../_shared/sql-errors.ts';
import { preconditionFailed, type ExpectedVersion } from '../../_shared/versions.ts';
import { projectArchived } from '../projects/project-access.ts';
import { mfaRequired, roleRefused } from '../workspaces/workspace-access.ts';
import { taskNotFound } from './task-access.ts';

/**
 * Holds until the transaction ends, so that one column's placements (create, move, change of status)
 * run one at a time: each reads its neighbours' positions after the one before it committed, and no two
 * ever compute the same position.
 */
export async function lockColumn(sql: Sql, projectId: string, status: TaskStatus): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('task_column:' || $1::text || ':' || $2::text, 0))`,
    [projectId, status],
  );
}

/** lockColumn, for the column `status` of the project of the task `taskId`: none if the caller cannot see it. */
export async function lockColumnOfTask(sql: Sql, taskId: string, status: TaskStatus): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('task_column:' ||
       (select project_id from public.tasks where id = $1)::text || ':' || $2::text, 0))`,
    [taskId, status],
  );
}

/** Where a moved task should land: right after `afterId`, right before `beforeId`, or at the column's end. */
export interface Placement {
  status: TaskStatus;
  afterId: string | null;
  beforeId: string | null;
}

/**
 * Moves the task for `placement` if it is at an expected version, and answers it as it is now (as it was,
 * when it is there already). `viaApiToken` words a refusal for MFA as the caller needs it.
 */
export async function moveTask(
  sql: Sql,
  id: string,
  placement: Placement,
  expected: ExpectedVersion,
  viaApiToken: boolean,
): Promise<Task> {
  const [row] = await refusing(
    sql.query<{ task: Task }>(
      `select private.task_json(t) as task from private.move_task($1, $2, $3, $4, $5) t`,
      [id, placement.status, placement.afterId, placement.beforeId, expected],
    ),
    (error) => moveRefusal(error, placement, viaApiToken),
  );
  if (!row) throw new Error('private.move_task returned no row');
  return row.task;
}

function moveRefusal(error: unknown, placement: Placement, viaApiToken: boolean): AppError | undefined {
  const detail = raisedErrorDetail(error) ?? '';
  switch (raisedErrorCode(error)) {
    case 'not_found':
      return taskNotFound();
    case 'mfa_required':
      return mfaRequired(detail, viaApiToken);
    case 'forbidden':
      return roleRefused(detail, 'move tasks');
    case 'project_archived':
      return projectArchived(detail);
    case 'precondition_failed':
      return preconditionFailed(Number(detail));
    case 'validation_failed':
      return detail === 'order' ? neighboursOutOfOrder() : notANeighbour(detail, placement);
    default:
      return undefined;
  }
}

const notANeighbour = (field: string, placement: Placement): AppError =>
  placementRefused(
    field,
    `must be the id of another task of this project in the column "${placement.status}"`,
  );

const neighboursOutOfOrder = (): AppError =>
  placementRefused('before_id', 'must come after after_id in the column');

function placementRefused(field: string, message: string): AppError {
  return new AppError('validation_failed', undefined, {
    errors: [{ path: `body.${field}`, code: 'not_a_neighbour', message }],
  });
}
