import type { IncomingMessage } from 'node:http';
import { isBanned } from './bans.ts';
import type { AuthContext } from './context.ts';
import { AuthError } from './errors.ts';
import { findSession, type SessionRow } from './sessions.queries.ts';
import { findUserById, type UserRow } from './users.queries.ts';

export interface CurrentSession {
  user: UserRow;
  session: SessionRow;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user and session behind the request's Bearer token; as GoTrue, the session must still exist. */
export async function requireSession(context: AuthContext, req: IncomingMessage): Promise<CurrentSession> {
  const claims = await context.tokens.verifyAccessToken(bearerToken(req));
  if (!claims.sub || !UUID.test(claims.sub)) {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  const user = await findUserById(context.database.statements, claims.sub);
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  const session = claims.session_id
    ? await findSession(context.database.statements, claims.session_id)
    : null;
  if (!session || session.user_id !== user.id) {
    throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  // A token issued before an admin banned the user no longer works on Auth's endpoints.
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
  return { user, session };
}

export function bearerToken(req: IncomingMessage): string {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return token;
}
