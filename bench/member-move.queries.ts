/** What the bench's moves read and write besides the API's own move statement. */
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { Sql } from '../supabase/functions/_shared/db.ts';

/** The first task of a column, the task `exceptId` left out (null: the column is empty but for it). */
export async function selectFirstTaskId(
  sql: Sql,
  projectId: string,
  status: TaskStatus,
  exceptId: string,
): Promise<string | null> {
  const [row] = await sql.query<{ id: string }>(
    `select id from public.tasks
     where project_id = $1 and status = $2 and id <> $3
     order by position limit 1`,
    [projectId, status, exceptId],
  );
  return row?.id ?? null;
}

/**
 * The column's last position before `position` (its very last when `position` is null), leaving
 * `exceptId` out; null when there is none.
 */
export async function selectPositionBefore(
  sql: Sql,
  projectId: string,
  status: TaskStatus,
  position: string | null,
  exceptId: string | null,
): Promise<string | null> {
  const [row] = await sql.query<{ position: string }>(
    `select position from public.tasks
     where project_id = $1 and status = $2 and ($3::text is null or position < $3::text)
       and ($4::uuid is null or id <> $4::uuid)
     order by position desc limit 1`,
    [projectId, status, position, exceptId],
  );
  return row?.position ?? null;
}

/** Row b's floor: puts the task in `status` at `position`, as the table's owner (no RLS, no function). */
export async function updateTaskPlace(
  sql: Sql,
  id: string,
  status: TaskStatus,
  position: string,
): Promise<void> {
  const rows = await sql.query(
    `update public.tasks set status = $2, position = $3 where id = $1 returning id`,
    [id, status, position],
  );
  if (rows.length !== 1) throw new Error('the raw move changed no row');
}
