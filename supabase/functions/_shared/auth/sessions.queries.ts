/** SQL about Supabase Auth sessions; runs as the service (`db.serviceStatements`), one statement. */
import type { Sql } from '../db.ts';

/** Whether the user's session still exists and has not timed out: signing out ends it. */
export async function selectSessionIsActive(sql: Sql, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await sql.query<{ active: boolean }>(
    `select exists (
       select 1 from auth.sessions s
       where s.id = $1 and s.user_id = $2 and (s.not_after is null or s.not_after > now())
     ) as active`,
    [sessionId, userId],
  );
  return row?.active === true;
}
