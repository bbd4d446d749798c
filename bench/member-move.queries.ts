/** What the realtime rows' moves read besides the API's own move statements, as the member, under RLS. */
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { Sql } from '../supabase/functions/_shared/db.ts';

/** The first position of a column, the task `exceptId` left out (null: the column is empty but for it). */
export async function selectFirstPosition(
  sql: Sql,
  projectId: string,
  status: TaskStatus,
  exceptId: string,
): Promise<string | null> {
  const [row] = await sql.query<{ position: string }>(
    `select position from public.tasks
     where project_id = $1 and status = $2 and id <> $3
     order by position limit 1`,
    [projectId, status, exceptId],
  );
  return row?.position ?? null;
}
