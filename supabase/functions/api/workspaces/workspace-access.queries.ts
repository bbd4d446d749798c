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

/**
 * The id of the caller's workspace whose slug is the parameter `param` (`$1`), as a SQL expression: lets
 * a statement find its workspace by the address's slug, sent alongside selectWorkspaceAccess without
 * waiting for the id. It names only one of the caller's own workspaces, or none.
 */
export const callerWorkspaceIdAt = (param: string): string =>
  `(select id from private.caller_workspaces() where slug = ${param})`;

/**
 * A workspace by its id, or by the slug of one of the caller's workspaces, or as the workspace of one of
 * the caller's tasks: the last two for a statement sent before its id is known.
 */
export type WorkspaceReference = string | { slug: string } | { taskId: string };

/** The workspace's id in a statement, from the parameter `param` holding workspaceValueOf(workspace). */
export const workspaceIdOf = (workspace: WorkspaceReference, param: string): string => {
  if (typeof workspace === 'string') return param;
  return 'slug' in workspace
    ? callerWorkspaceIdAt(param)
    : `(select private.caller_workspace_of_task(${param}))`;
};
export const workspaceValueOf = (workspace: WorkspaceReference): string => {
  if (typeof workspace === 'string') return workspace;
  return 'slug' in workspace ? workspace.slug : workspace.taskId;
};

export async function selectWorkspaceAccess(sql: Sql, slug: string): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    'select id, slug, require_mfa, role from private.caller_workspaces() where slug = $1',
    [slug],
  );
  return row;
}

/**
 * The same, for the workspace of the comment `commentId` if it is one of the caller's, whether or not
 * RLS shows the comment: sent alongside the comment's own read.
 */
export async function selectWorkspaceAccessOfComment(
  sql: Sql,
  commentId: string,
): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    `select id, slug, require_mfa, role from private.caller_workspaces()
     where id = (select private.caller_workspace_of_comment($1))`,
    [commentId],
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
