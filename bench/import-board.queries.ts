/** The bench's SQL for row p: the member's role for the row, and the floor's one multi-row insert. */
import type { Db } from '../local/db.ts';
import type { Sql } from '../supabase/functions/_shared/db.ts';

/** Sets the role of user `userId` in the workspace `slug` (imports are for admins). */
export async function setRole(db: Db, slug: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  await db.query(
    `update public.memberships m set role = $3 from public.workspaces w
     where w.slug = $1 and m.workspace_id = w.id and m.user_id = $2`,
    [slug, userId, role],
  );
}

/**
 * The floor: a new project and the same number of tasks in one multi-row insert, as the caller under
 * RLS, with the titles, descriptions and statuses of the board's cards; the same triggers fire.
 */
export async function insertProjectWithTasks(
  sql: Sql,
  slug: string,
  key: string,
  tasks: readonly { title: string; description: string; status: string }[],
): Promise<void> {
  const [project] = await sql.query<{ id: string }>(
    `insert into public.projects (workspace_id, key, name, created_by)
     select w.id, $2, $2, (select auth.uid()) from public.workspaces w where w.slug = $1 returning id`,
    [slug, key],
  );
  await sql.query(
    `insert into public.tasks (project_id, title, description, status, position, created_by)
     select $1, x.title, x.description, x.status, 'a' || lpad(x.ord::text, 6, '0'), (select auth.uid())
     from jsonb_to_recordset($2::jsonb) as x (title text, description text, status text, ord integer)`,
    [project?.id, JSON.stringify(tasks.map((task, ord) => ({ ...task, ord })))],
  );
}
