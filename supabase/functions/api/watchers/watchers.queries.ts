/**
 * SQL for a task's watchers. Runs as the caller: RLS shows the watchers of tasks in the caller's
 * workspaces, and lets them add and remove only themselves.
 */
import type { Sql } from '../../_shared/db.ts';

export interface WatcherRow extends Record<string, unknown> {
  user_id: string;
  /** Null when the caller may not read the watcher's profile (it was deleted). */
  display_name: string | null;
  created_at: Date;
}

/** The task's watchers, longest-watching first. */
export function selectTaskWatchers(sql: Sql, taskId: string): Promise<WatcherRow[]> {
  return sql.query<WatcherRow>(
    `select w.user_id, p.display_name, w.created_at
     from public.task_watchers w
     left join public.profiles p on p.user_id = w.user_id
     where w.task_id = $1
     order by w.created_at, w.user_id`,
    [taskId],
  );
}

/** Only a task the caller can see (RLS on tasks, the MFA rule included): any other inserts nothing. */
export async function insertOwnWatch(sql: Sql, taskId: string): Promise<void> {
  await sql.query(
    `insert into public.task_watchers (task_id, user_id)
     select t.id, (select auth.uid()) from public.tasks t where t.id = $1
     on conflict (task_id, user_id) do nothing`,
    [taskId],
  );
}

export async function deleteOwnWatch(sql: Sql, taskId: string): Promise<void> {
  await sql.query('delete from public.task_watchers where task_id = $1 and user_id = (select auth.uid())', [
    taskId,
  ]);
}
