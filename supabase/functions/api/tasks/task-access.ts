/**
 * How every flat route under /v1/tasks/{id} starts: find the task (RLS hides other workspaces' tasks, so
 * those are `404`), then enter its workspace, which applies the MFA rule and yields the caller's role.
 * RLS also hides the tasks of a workspace that requires MFA from an aal1 session: when the task is not
 * found, entering its workspace, if it is one of the caller's, answers `403 mfa_required` instead.
 * Routes that change a task, or what hangs off it, then call `requireActiveTaskProject`.
 */
import type { Context } from 'hono';
import { asLastStatement, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import type { Principal } from '../../_shared/principal.ts';
import type { AppEnv } from '../app-env.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { requireActiveProject } from '../projects/project-access.ts';
import {
  selectWorkspaceAccessOfTask,
  type WorkspaceAccessRow,
} from '../workspaces/workspace-access.queries.ts';
import { admitToWorkspace, type WorkspaceAccess } from '../workspaces/workspace-access.ts';
import { selectTask, type TaskRow } from './tasks.queries.ts';

export function taskNotFound(): AppError {
  return new AppError('not_found', 'There is no task with this id in your workspaces.');
}

/** The `{id}` of /v1/tasks/{id}[/…]; anything but a UUID names no task. */
export const taskIdOf = <E extends AppEnv>(c: Context<E>): string =>
  shapedPathParam(c, 'id', UuidShape, taskNotFound);

export interface TaskInWorkspace {
  access: WorkspaceAccess;
  task: TaskRow;
}

/**
 * The task and the caller's access to its workspace, read together in one round trip. `last`:
 * asLastStatement(sql) when nothing follows (a read of the task itself), so the COMMIT goes with them.
 */
export async function enterTaskWorkspace(
  sql: Sql,
  principal: Principal,
  taskId: string,
  last: Sql = sql,
): Promise<TaskInWorkspace> {
  const [task, accessRow] = await Promise.all([
    selectTask(sql, taskId),
    selectWorkspaceAccessOfTask(last, taskId),
  ]);
  return admitToTaskWorkspace(principal, accessRow, task);
}

/**
 * enterTaskWorkspace for a read: the COMMIT rides behind the two statements, or behind `read`'s one
 * statement about what hangs off the task (RLS shows it only with the task), all in one round trip.
 * The task and its workspace are judged first, so their answers (404, 403 MFA) come before the read's.
 */
export async function readInTaskWorkspace<T>(
  sql: Sql,
  principal: Principal,
  taskId: string,
  read: (sql: Sql) => Promise<T>,
): Promise<TaskInWorkspace & { found: T }> {
  const [task, accessRow, found] = await Promise.all([
    selectTask(sql, taskId),
    selectWorkspaceAccessOfTask(sql, taskId),
    read(asLastStatement(sql)),
  ]);
  return { ...admitToTaskWorkspace(principal, accessRow, task), found };
}

/**
 * enterTaskWorkspace, from the rows of selectWorkspaceAccessOfTask and selectTask sent alongside other
 * statements: a hidden task's workspace may still answer `403 mfa_required`, then the task is `404`.
 */
export function admitToTaskWorkspace(
  principal: Principal,
  accessRow: WorkspaceAccessRow | undefined,
  task: TaskRow | undefined,
): TaskInWorkspace {
  if (!task) {
    if (accessRow) admitToWorkspace(principal, accessRow.slug, accessRow);
    throw taskNotFound();
  }
  if (!accessRow) throw new AppError('not_found');
  return { access: admitToWorkspace(principal, accessRow.slug, accessRow), task };
}

/** `409 project_archived` unless the task's project is active (docs/product.md#states: archived projects are read-only). */
export function requireActiveTaskProject(task: TaskRow): void {
  requireActiveProject({ key: task.project_key, archived: task.project_archived_at !== null });
}
