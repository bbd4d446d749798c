import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { isBanned } from './bans.ts';
import type { AuthContext } from './context.ts';
import { web3Disabled } from './disabled-features.ts';
import { AuthError, invalidCredentials } from './errors.ts';
import { idTokenGrant } from './id-token-grant.ts';
import { passwordMatches } from './passwords.ts';
import { pkceGrant } from './pkce-grant.ts';
import { refreshSession } from './refresh.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { startSession, type SessionBody } from './sessions.ts';
import { findUserByEmail, recordSignIn } from './users.queries.ts';

const PasswordGrantBody = z.object({ email: z.string().optional(), password: z.string().optional() });
const RefreshGrantBody = z.object({ refresh_token: z.string().optional() });

/** POST /token?grant_type=password|refresh_token|pkce, and id_token and web3, which are switched off */
export async function token(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  switch (url.searchParams.get('grant_type')) {
    case 'password':
      return sessionReply(await passwordGrant(context, req));
    case 'refresh_token':
      return refreshGrant(context, req);
    case 'pkce':
      return sessionReply(await pkceGrant(context, req));
    case 'id_token':
      return idTokenGrant(context, req);
    case 'web3':
      throw web3Disabled();
    default:
      throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  }
}

async function passwordGrant(context: AuthContext, req: IncomingMessage): Promise<SessionBody> {
  const body = await readJsonBody(req, PasswordGrantBody);
  if (!body.email || !body.password) throw invalidCredentials();
  const user = await findUserByEmail(context.database.statements, body.email.trim());
  // GoTrue's order: a banned user learns of the ban before the password is checked.
  if (!user?.encrypted_password) throw invalidCredentials();
  if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
  if (!(await passwordMatches(body.password, user.encrypted_password))) throw invalidCredentials();
  if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  return context.database.transaction(async (db) => {
    await recordSignIn(db, user.id);
    return startSession(context, db, user);
  });
}

async function refreshGrant(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req, RefreshGrantBody);
  if (!body.refresh_token) {
    return { status: 400, body: { error: 'invalid_request', error_description: 'refresh_token required' } };
  }
  return sessionReply(await refreshSession(context, body.refresh_token));
}

function sessionReply(session: SessionBody): Reply {
  return ok(session, { 'sb-auth-user-id': String(session.user.id) });
}
