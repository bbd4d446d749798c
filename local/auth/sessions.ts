import { randomUUID } from 'node:crypto';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import {
  findAmrClaims,
  insertRefreshToken,
  insertSession,
  recordAmrClaim,
  type AuthenticationMethod,
  type SessionRow,
} from './sessions.queries.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, newRefreshToken } from './tokens.ts';
import { loadUserJson } from './user-json.ts';
import { findUserById, type UserRow } from './users.queries.ts';

export interface SessionBody {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

/** A new auth.sessions row with its first refresh token, answered as GoTrue's Session object. */
export async function startSession(
  context: AuthContext,
  db: Db,
  user: UserRow,
  method: AuthenticationMethod = 'password',
): Promise<SessionBody> {
  const session = await insertSession(db, randomUUID(), user.id);
  await recordAmrClaim(db, session.id, method);
  const refreshToken = newRefreshToken();
  await insertRefreshToken(db, { token: refreshToken, userId: user.id, sessionId: session.id, parent: null });
  return sessionBody(context, db, session, refreshToken);
}

/** The Session object for an existing session, with a fresh access token and the given refresh token. */
export async function sessionBody(
  context: AuthContext,
  db: Db,
  session: SessionRow,
  refreshToken: string,
): Promise<SessionBody> {
  const user = await findUserById(db, session.user_id);
  if (!user) throw new Error('the session outlived its user');
  const { token, expiresAt } = await context.tokens.issueAccessToken({
    user,
    sessionId: session.id,
    aal: session.aal,
    amr: await findAmrClaims(db, session.id),
  });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await loadUserJson(db, user),
  };
}
