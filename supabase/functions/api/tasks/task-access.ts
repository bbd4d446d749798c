/**
 * How every flat route under /v1/tasks/{id} starts: find the task (RLS hides other workspaces' tasks, so
 * those are `404`), then enter its workspace, which applies the MFA rule and yields the caller's role.
 * RLS also hides the tasks of a workspace that requires MFA from an aal1 session: when the task is not
 * found, entering its workspace, if it is one of the caller's, answers `403 mfa_required` instead.
 * Routes that change a task, or what hangs off it, then call `requireActiveTaskProject`.
 */
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireActiveProject } from '../projects/project-access.ts';
import { enterWorkspaceById, type WorkspaceAccess } from '../workspaces/workspace-access.ts';
import { selectCallerTaskWorkspaceId, selectTask, type TaskRow } from './tasks.queries.ts';

export function taskNotFound(): AppError {
  return new AppError('not_found', 'There is no task with this id in your workspaces.');
}

export interface TaskInWorkspace {
  access: WorkspaceAccess;
  task: TaskRow;
}

export async function enterTaskWorkspace(
  sql: Sql,
  principal: Principal,
  taskId: string,
): Promise<TaskInWorkspace> {
  const task = await selectTask(sql, taskId);
  if (!task) {
    const hiddenIn = await selectCallerTaskWorkspaceId(sql, taskId);
    if (hiddenIn) await enterWorkspaceById(sql, principal, hiddenIn);
    throw taskNotFound();
  }
  return { access: await enterWorkspaceById(sql, principal, task.workspace_id), task };
}

/** The task, as the caller may see it; `404` when they may not. */
export async function findTask(sql: Sql, taskId: string): Promise<TaskRow> {
  const task = await selectTask(sql, taskId);
  if (!task) throw taskNotFound();
  return task;
}

/** `409 project_archived` unless the task's project is active (SPEC §4: archived projects are read-only). */
export function requireActiveTaskProject(task: TaskRow): void {
  requireActiveProject({ key: task.project_key, archived_at: task.project_archived_at });
}
