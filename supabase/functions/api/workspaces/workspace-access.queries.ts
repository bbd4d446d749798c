/**
 * SQL behind workspace-access.ts. Runs as the caller, through `private.caller_workspaces()`: the caller's
 * own memberships only, and, unlike RLS, at aal1 too, so that a workspace requiring MFA answers `403`.
 */
import type { WorkspaceRole } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';

export interface WorkspaceAccessRow extends Record<string, unknown> {
  id: string;
  slug: string;
  require_mfa: boolean;
  role: WorkspaceRole;
}

export async function selectWorkspaceAccess(sql: Sql, slug: string): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    'select id, slug, require_mfa, role from private.caller_workspaces() where slug = $1',
    [slug],
  );
  return row;
}

/** The same, by the workspace's id: for flat routes (`/v1/tasks/{id}`) that find the row first. */
export async function selectWorkspaceAccessById(
  sql: Sql,
  workspaceId: string,
): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    'select id, slug, require_mfa, role from private.caller_workspaces() where id = $1',
    [workspaceId],
  );
  return row;
}

/**
 * The same, for the workspace of the task `taskId` if it is one of the caller's, whether or not RLS
 * shows the task (it hides an MFA workspace's tasks at aal1): sent alongside the task's own read.
 */
export async function selectWorkspaceAccessOfTask(
  sql: Sql,
  taskId: string,
): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    `select id, slug, require_mfa, role from private.caller_workspaces()
     where id = (select private.caller_workspace_of_task($1))`,
    [taskId],
  );
  return row;
}
