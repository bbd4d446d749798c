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
import { deleteUserSessions } from './sessions.queries.ts';
import { loadUserJson } from './user-json.ts';
import { findUserById, mergeUserMetadata, updatePasswordHash } from './users.queries.ts';

const UpdateUserBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
});
type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** GET /user */
export async function getUser(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const { user } = await requireSession(context, req);
  return ok(await currentUserJson(context.database.statements, user.id));
}

/** PUT /user: user_metadata (`data`) and password; a new password signs out the user's other sessions. */
export async function updateUser(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const current = await requireSession(context, req);
  const body = await readJsonBody(req, UpdateUserBody);
  await requireAal2ForCredentialChanges(context, current, body);
  refuseUnsupportedChanges(current, body);
  const newHash = body.password === undefined ? null : await newPasswordHash(current, body.password);
  await context.database.transaction(async (db) => {
    if (body.data) await mergeUserMetadata(db, current.user.id, body.data);
    if (newHash) {
      await updatePasswordHash(db, current.user.id, newHash);
      await deleteUserSessions(db, current.user.id, current.session.id);
    }
  });
  return ok(await currentUserJson(context.database.statements, current.user.id));
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
  const changesEmail = body.email !== undefined && body.email.trim().toLowerCase() !== user.email;
  const changesPhone = body.phone !== undefined && body.phone !== (user.phone ?? '');
  if (changesEmail || changesPhone) {
    throw new AuthError(
      422,
      'feature_disabled',
      'Changing the email or phone is not supported by the stand-in yet',
    );
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
