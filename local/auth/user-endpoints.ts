import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { requireSession, type CurrentSession } from './current-session.ts';
import { AuthError } from './errors.ts';
import { findFactors } from './factors.queries.ts';
import { assertAcceptablePassword, hashPassword, passwordMatches } from './passwords.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { assertEmailFree, requestEmailChange } from './email-change.ts';
import { normalizeEmail } from './emails.ts';
import { pkceChallenge } from './pkce.ts';
import { assertReauthenticated } from './reauthenticate.ts';
import { redirectTarget } from './redirects.ts';
import { deleteUserSessions } from './sessions.queries.ts';
import { loadUserJson } from './user-json.ts';
import { findUserById, mergeUserMetadata, updatePasswordHash } from './users.queries.ts';

const UpdateUserBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  nonce: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});
type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** GET /user */
export async function getUser(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const { user } = await requireSession(context, req);
  return ok(await currentUserJson(context.database.statements, user.id));
}

/**
 * PUT /user?redirect_to=: user_metadata (`data`), password (with the reauthentication nonce when secure
 * password change asks for it; a new password signs out the user's other sessions) and e-mail (mailed for
 * confirmation; the address changes only once confirmed).
 */
export async function updateUser(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const current = await requireSession(context, req);
  const body = await readJsonBody(req, UpdateUserBody);
  const newEmail = changedEmail(current, body.email);
  await requireAal2ForCredentialChanges(context, current, body);
  refuseUnsupportedChanges(current, body);
  if (newEmail) await assertEmailFree(context.database.statements, newEmail, current.user.id);
  const pkce = pkceChallenge(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectTarget(context.redirects, url.searchParams.get('redirect_to'));
  await context.database.transaction(async (db) => {
    if (body.password !== undefined) {
      await assertReauthenticated(context, db, current, body.nonce);
      const newHash = await newPasswordHash(current, body.password);
      await updatePasswordHash(db, current.user.id, newHash);
      await deleteUserSessions(db, current.user.id, current.session.id);
    }
    if (body.data) await mergeUserMetadata(db, current.user.id, body.data);
    if (newEmail) await requestEmailChange(context, db, current.user.id, { newEmail, pkce, redirectTo });
  });
  return ok(await currentUserJson(context.database.statements, current.user.id));
}

function changedEmail({ user }: CurrentSession, email: string | undefined): string | null {
  if (!email) return null;
  const normalized = normalizeEmail(email);
  return normalized === user.email ? null : normalized;
}

/** As GoTrue: once a factor is verified, the password, e-mail or phone only change from an aal2 session. */
async function requireAal2ForCredentialChanges(
  context: AuthContext,
  { user, session }: CurrentSession,
  body: UpdateUserBody,
): Promise<void> {
  const changesCredentials =
    Boolean(body.password) ||
    (Boolean(body.email) && body.email !== user.email) ||
    (Boolean(body.phone) && body.phone !== (user.phone ?? ''));
  if (!changesCredentials || session.aal === 'aal2') return;
  const factors = await findFactors(context.database.statements, user.id);
  if (factors.some((factor) => factor.status === 'verified')) {
    throw new AuthError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    );
  }
}

function refuseUnsupportedChanges({ user }: CurrentSession, body: UpdateUserBody): void {
  if (body.phone !== undefined && body.phone !== (user.phone ?? '')) {
    // The stand-in has no SMS provider, as the CLI's default config.
    throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
  }
}

async function newPasswordHash({ user }: CurrentSession, password: string): Promise<string> {
  assertAcceptablePassword(password, user.email ?? '');
  if (await passwordMatches(password, user.encrypted_password)) {
    throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
  }
  return hashPassword(password);
}

async function currentUserJson(db: Db, userId: string): Promise<Record<string, unknown>> {
  const user = await findUserById(db, userId);
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return loadUserJson(db, user);
}
