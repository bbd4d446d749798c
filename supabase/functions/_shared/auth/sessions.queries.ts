/** SQL about the caller's Supabase Auth session; runs as the caller (`db.asCaller`). */
import type { Sql } from '../db.ts';

/** Whether the session named by the caller's claims still exists and has not timed out. */
export async function selectCallerSessionIsActive(sql: Sql): Promise<boolean> {
  const [row] = await sql.query<{ active: boolean }>('select private.caller_session_is_active() as active');
  return row?.active === true;
}
