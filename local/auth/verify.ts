import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { normalizeEmail } from './emails.ts';
import { flowOfToken } from './email-tokens.ts';
import {
  applyVerification,
  SESSION_METHOD,
  verificationType,
  verifyEmailCode,
  verifyTokenHash,
  type VerificationType,
  type Verified,
} from './email-verification.ts';
import { AuthError, validationFailed } from './errors.ts';
import { issueAuthCode, type FlowMethod } from './flow-state.queries.ts';
import { redirectTarget } from './redirects.ts';
import { errorRedirect, messageRedirect, sessionRedirect, withQuery } from './verify-redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { startSession, type SessionBody } from './sessions.ts';
import { recordSignIn, type UserRow } from './users.queries.ts';
import { SINGLE_CONFIRMATION_ACCEPTED } from './email-change.ts';

const VerifyBody = z.object({
  type: z.string().optional(),
  token: z.string().optional(),
  token_hash: z.string().optional(),
  email: z.string().optional(),
  redirect_to: z.string().optional(),
});

const FLOW_METHOD: Record<Verified['type'], FlowMethod> = {
  signup: 'email/signup',
  recovery: 'recovery',
  magiclink: 'magiclink',
  invite: 'invite',
  email_change: 'email_change',
};

/**
 * GET /verify?token=&type=&redirect_to=: the link in an e-mail. Redirects (303) to `redirect_to` with the
 * session in the hash (implicit flow), with `?code=` to exchange (PKCE, `pkce_` tokens), or with the error.
 */
export async function verifyLink(context: AuthContext, _req: IncomingMessage, url: URL): Promise<Reply> {
  const token = url.searchParams.get('token') ?? '';
  const type = url.searchParams.get('type') ?? '';
  if (!type) throw validationFailed('Verify requires a verification type');
  if (!token) throw validationFailed('Verify requires a token or a token hash');
  const redirectTo = redirectTarget(context.redirects, url.searchParams.get('redirect_to'));
  const flow = flowOfToken(token);
  try {
    const location = await context.database.transaction(async (db) => {
      const verified = await verifyTokenHash(db, verificationType(type), token);
      const user = await applyVerification(context, db, verified);
      if (!user) return messageRedirect(redirectTo, SINGLE_CONFIRMATION_ACCEPTED, flow === 'pkce');
      if (flow === 'pkce') return withQuery(redirectTo, { code: await authCode(db, user, verified) });
      const session = await signIn(context, db, user, verified);
      return sessionRedirect(redirectTo, session, verified.type);
    });
    return seeOther(location);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return seeOther(errorRedirect(redirectTo, error, flow === 'pkce'));
  }
}

/** POST /verify `{email, token, type}` or `{token_hash, type}` → Session. */
export async function verifyOtp(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req, VerifyBody);
  if (!body.type) throw validationFailed('Verify requires a verification type');
  if (!body.token === !body.token_hash) {
    throw validationFailed('Verify requires either a token or a token hash');
  }
  const type = verificationType(body.type);
  const find = body.token ? codeFinder(body.email, body.token) : hashFinder(body);
  const answer = await context.database.transaction(async (db) => {
    const verified = await find(db, type);
    const user = await applyVerification(context, db, verified);
    // GoTrue's answer to the first of a secure e-mail change's two confirmations.
    if (!user) return { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' };
    return signIn(context, db, user, verified);
  });
  return ok(answer);
}

type Finder = (db: Db, type: VerificationType) => Promise<Verified>;

function codeFinder(email: string | undefined, code: string): Finder {
  if (!email) throw validationFailed('Only an email address or phone number should be provided on verify');
  let normalized: string;
  try {
    normalized = normalizeEmail(email);
  } catch {
    throw new AuthError(422, 'validation_failed', 'Invalid email format');
  }
  return (db, type) => verifyEmailCode(db, type, normalized, code);
}

function hashFinder(body: z.infer<typeof VerifyBody>): Finder {
  if (body.email || body.redirect_to) {
    throw validationFailed('Only the token_hash and type should be provided');
  }
  const tokenHash = body.token_hash ?? '';
  return (db, type) => verifyTokenHash(db, type, tokenHash);
}

async function signIn(context: AuthContext, db: Db, user: UserRow, verified: Verified): Promise<SessionBody> {
  await recordSignIn(db, user.id);
  return startSession(context, db, user, SESSION_METHOD[verified.type]);
}

async function authCode(db: Db, user: UserRow, verified: Verified): Promise<string> {
  const code = await issueAuthCode(db, user.id, FLOW_METHOD[verified.type]);
  if (!code) {
    throw new AuthError(
      400,
      'flow_state_not_found',
      'No associated flow state found. No valid flow state found for user.',
    );
  }
  return code;
}

function seeOther(location: string): Reply {
  return { status: 303, headers: { location } };
}
