import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { inTransaction, type AuthContext } from './context.ts';
import { requireSession, type CurrentSession } from './current-session.ts';
import { AuthError } from './errors.ts';
import { assertAcceptablePassword, hashPassword, passwordMatches } from './passwords.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { deleteUserSessions } from './sessions.queries.ts';
import { userJson } from './user-json.ts';
import {
  findIdentities,
  findUserById,
  mergeUserMetadata,
  updatePasswordHash,
  type Db,
} from './users.queries.ts';

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
  return ok(await currentUserJson(context.pool, user.id));
}

/** PUT /user: user_metadata (`data`) and password; a new password signs out the user's other sessions. */
export async function updateUser(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const current = await requireSession(context, req);
  const body = await readJsonBody(req, UpdateUserBody);
  refuseUnsupportedChanges(current, body);
  const newHash = body.password === undefined ? null : await newPasswordHash(current, body.password);
  await inTransaction(context.pool, async (db) => {
    if (body.data) await mergeUserMetadata(db, current.user.id, body.data);
    if (newHash) {
      await updatePasswordHash(db, current.user.id, newHash);
      await deleteUserSessions(db, current.user.id, current.session.id);
    }
  });
  return ok(await currentUserJson(context.pool, current.user.id));
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
  return userJson(user, await findIdentities(db, userId));
}
