/** SQL about Supabase Auth sessions; runs as the service (`db.serviceStatements`), one statement. */
import type { Sql } from '../db.ts';

/**
 * Where the user's session stands: `ended` when it was signed out, timed out or its user hard-deleted
 * (sessions go with the user); `deleted` or `banned` when its user was soft-deleted or is banned now,
 * which leave sessions in place.
 */
export type SessionStanding = 'active' | 'ended' | 'banned' | 'deleted';

export async function selectSessionStanding(
  sql: Sql,
  sessionId: string,
  userId: string,
): Promise<SessionStanding> {
  const [row] = await sql.query<{ standing: Exclude<SessionStanding, 'ended'> }>(
    `select case
         when account.deleted_at is not null then 'deleted'
         when account.banned_until > now() then 'banned'
         else 'active'
       end as standing
     from auth.sessions as session
     join auth.users as account on account.id = session.user_id
     where session.id = $1 and session.user_id = $2
       and (session.not_after is null or session.not_after > now())`,
    [sessionId, userId],
  );
  return row?.standing ?? 'ended';
}
