/** The bench's arrangements for row n, as the database owner: more members, and tasks watched by all or none. */
import type { Db } from '../local/db.ts';

/** How many members the workspace `slug` has. */
export async function countMembers(db: Db, slug: string): Promise<number> {
  const result = await db.query<{ count: number }>(
    `select count(*)::integer as count from public.memberships m
     join public.workspaces w on w.id = m.workspace_id where w.slug = $1`,
    [slug],
  );
  return result.rows[0]?.count ?? 0;
}

/** Adds `userIds` to the workspace `slug` as members. */
export async function addMembers(db: Db, slug: string, userIds: readonly string[]): Promise<void> {
  await db.query(
    `insert into public.memberships (workspace_id, user_id, role)
     select w.id, u, 'member' from public.workspaces w, unnest($2::uuid[]) u where w.slug = $1`,
    [slug, userIds],
  );
}

/** `count` tasks of `projectId`'s backlog, oldest first; their ids. */
export async function selectBacklogTasks(db: Db, projectId: string, count: number): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `select id from public.tasks where project_id = $1 and status = 'backlog' order by number limit $2`,
    [projectId, count],
  );
  return result.rows.map((row) => row.id);
}

/** Makes every member of the task's workspace watch each of `watched`, and nobody watch the `unwatched`. */
export async function setWatchers(
  db: Db,
  watched: readonly string[],
  unwatched: readonly string[],
): Promise<void> {
  await db.query('delete from public.task_watchers where task_id = any ($1::uuid[])', [
    [...watched, ...unwatched],
  ]);
  await db.query(
    `insert into public.task_watchers (task_id, user_id)
     select t.id, m.user_id from public.tasks t join public.memberships m on m.workspace_id = t.workspace_id
     where t.id = any ($1::uuid[])`,
    [watched],
  );
}

/** How many notifications the comments wrote or folded into, for the row's note. */
export async function countNotificationsOn(db: Db, taskIds: readonly string[]): Promise<number> {
  const result = await db.query<{ count: number }>(
    'select count(*)::integer as count from public.notifications where task_id = any ($1::uuid[])',
    [taskIds],
  );
  return result.rows[0]?.count ?? 0;
}
