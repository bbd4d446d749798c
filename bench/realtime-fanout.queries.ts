/** What row k needs to know of the seeded workspace, read as the database owner. */
import type { Db } from '../local/db.ts';

/** The workspace's id (its Realtime topic is `workspace:<id>`) and its members' user ids. */
export async function selectWorkspaceMembers(
  db: Db,
  slug: string,
): Promise<{ workspaceId: string; userIds: string[] }> {
  const { rows } = await db.query<{ workspace_id: string; user_ids: string[] }>(
    `select w.id as workspace_id, array_agg(m.user_id order by m.user_id) as user_ids
     from public.workspaces w join public.memberships m on m.workspace_id = w.id
     where w.slug = $1 group by w.id`,
    [slug],
  );
  const [row] = rows;
  if (!row) throw new Error(`no workspace "${slug}" with members`);
  return { workspaceId: row.workspace_id, userIds: row.user_ids };
}
