/** SQL behind local/demo-data.ts. */
import type { Db } from './db.ts';

export interface DemoWorkspaceCounts {
  projects: number;
  tasks: number;
  comments: number;
}

/** What the workspace `slug` holds, when `ownerEmail`'s account owns it; null otherwise. */
export async function selectDemoWorkspaceCounts(
  db: Db,
  slug: string,
  ownerEmail: string,
): Promise<DemoWorkspaceCounts | null> {
  const result = await db.query<DemoWorkspaceCounts>(
    `select (select count(*)::int from public.projects p where p.workspace_id = w.id) as projects,
            (select count(*)::int from public.tasks t where t.workspace_id = w.id) as tasks,
            (select count(*)::int from public.comments c
               join public.tasks t on t.id = c.task_id where t.workspace_id = w.id) as comments
     from public.workspaces w
     join public.memberships m on m.workspace_id = w.id and m.role = 'owner'
     join auth.users u on u.id = m.user_id
     where w.slug = $1 and lower(u.email) = lower($2)`,
    [slug, ownerEmail],
  );
  return result.rows[0] ?? null;
}
