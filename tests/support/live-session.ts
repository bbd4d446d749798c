/**
 * For tests that run SQL as a user without signing in: RLS admits a caller only with a live session
 * (private.caller_credential_is_live, the second security review item 2), so such a user gets one, whose id
 * is the user's own, and the claims name it as the API's would.
 */
import type pg from 'pg';

type Queryable = Pick<pg.Client, 'query'>;

/** Gives `userId` a session (id = the user's id) unless it has it; run it as the database owner. */
export async function ensureLiveSession(db: Queryable, userId: string): Promise<string> {
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal)
     values ($1, $1, now(), now(), 'aal1') on conflict (id) do nothing`,
    [userId],
  );
  return userId;
}

/** The JWT claims of `userId`'s session from ensureLiveSession, as JSON, with `extra` claims. */
export function liveSessionClaims(userId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ sub: userId, role: 'authenticated', aal: 'aal1', session_id: userId, ...extra });
}
