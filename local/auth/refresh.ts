import type { Db } from '../db.ts';
import { isBanned } from './bans.ts';
import { AuthError } from './errors.ts';
import type { AuthContext } from './context.ts';
import {
  findActiveRefreshToken,
  findSession,
  insertRefreshToken,
  lockRefreshToken,
  revokeRefreshToken,
  revokeSessionTokens,
  touchSession,
  type RefreshTokenRow,
  type SessionRow,
} from './sessions.queries.ts';
import { sessionBody, type SessionBody } from './sessions.ts';
import { newRefreshToken } from './tokens.ts';
import { findUserById } from './users.queries.ts';

/** GoTrue's refresh-token grant with rotation (docs/supabase-protocols.md#refresh-token-rotation). */
export async function refreshSession(context: AuthContext, presented: string): Promise<SessionBody> {
  // A refused reuse is returned rather than thrown, so that revoking the token family is committed.
  const outcome = await context.database.transaction((db) => refreshInTransaction(context, db, presented));
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

async function refreshInTransaction(
  context: AuthContext,
  db: Db,
  presented: string,
): Promise<SessionBody | AuthError> {
  const token = await lockRefreshToken(db, presented);
  if (!token) {
    throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  const user = await findUserById(db, token.user_id);
  if (user && isBanned(user)) {
    throw new AuthError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
  }
  const session = token.session_id ? await findSession(db, token.session_id) : null;
  if (!session) {
    throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
  }
  if (token.revoked) {
    const active = await findActiveRefreshToken(db, session.id);
    // A client that lost the previous answer gets the token that answer carried.
    if (active?.parent === token.token) return sessionBody(context, db, session, active.token);
    if (reuseIntervalHasPassed(context, token)) {
      await revokeSessionTokens(db, session.id);
      return new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
  }
  return rotate(context, db, token, session);
}

function reuseIntervalHasPassed(context: AuthContext, token: RefreshTokenRow): boolean {
  const revokedAt = token.updated_at.getTime();
  return Date.now() > revokedAt + context.refreshTokenReuseIntervalSeconds * 1000;
}

async function rotate(
  context: AuthContext,
  db: Db,
  token: RefreshTokenRow,
  session: SessionRow,
): Promise<SessionBody> {
  const child = await replaceRefreshToken(db, session, token.token);
  await touchSession(db, session.id);
  return sessionBody(context, db, session, child);
}

/**
 * GoTrue's GrantRefreshTokenSwap: revokes the session's active refresh token and returns its new child,
 * so that a token handed out before (e.g. before an MFA verification) no longer carries on the session.
 */
export async function swapRefreshToken(db: Db, session: SessionRow): Promise<string> {
  const active = await findActiveRefreshToken(db, session.id);
  return replaceRefreshToken(db, session, active?.token ?? null);
}

async function replaceRefreshToken(db: Db, session: SessionRow, parent: string | null): Promise<string> {
  if (parent) await revokeRefreshToken(db, parent);
  const child = newRefreshToken();
  await insertRefreshToken(db, { token: child, userId: session.user_id, sessionId: session.id, parent });
  return child;
}
