/**
 * SQL behind workspace-access.ts. Runs as the caller, through `private.caller_workspaces()`: the caller's
 * own memberships only, and, unlike RLS, at aal1 too, so that a workspace requiring MFA answers `403`.
 */
import type { Sql } from '../../_shared/db.ts';

export type WorkspaceRole = 'owner' | 'admin' | 'member' | 'viewer';

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
