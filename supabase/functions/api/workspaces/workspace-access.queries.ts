/** SQL behind workspace-access.ts. Runs as the caller: RLS answers no row for a workspace they are not in. */
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
    `select w.id, w.slug, w.require_mfa, m.role
     from public.workspaces w
     join public.memberships m on m.workspace_id = w.id and m.user_id = (select auth.uid())
     where w.slug = $1`,
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
    `select w.id, w.slug, w.require_mfa, m.role
     from public.workspaces w
     join public.memberships m on m.workspace_id = w.id and m.user_id = (select auth.uid())
     where w.id = $1`,
    [workspaceId],
  );
  return row;
}
