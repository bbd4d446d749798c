import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { inTransaction, type AuthContext } from './context.ts';
import { normalizeEmail } from './emails.ts';
import { AuthError, validationFailed } from './errors.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { startSession } from './sessions.ts';
import { findUserByEmail, findUserById, insertConfirmedUser } from './users.queries.ts';

const SignUpBody = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
});

const UNIQUE_VIOLATION = '23505';

/** POST /signup with e-mail confirmations off (the CLI default): the user is confirmed and signed in. */
export async function signUp(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const body = await readJsonBody(req, SignUpBody);
  const email = normalizeEmail(body.email);
  if (!body.password) throw validationFailed('Signup requires a valid password');
  assertAcceptablePassword(body.password, email);
  if (await findUserByEmail(context.pool, email)) throw userAlreadyExists();
  const encryptedPassword = await hashPassword(body.password);
  const session = await inTransaction(context.pool, async (db) => {
    const id = randomUUID();
    await insertConfirmedUser(db, { id, email, encryptedPassword, userMetadata: body.data ?? {} });
    const user = await findUserById(db, id);
    if (!user) throw new Error('the new user vanished');
    return startSession(context, db, user);
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? userAlreadyExists() : error;
  });
  return ok(session);
}

function userAlreadyExists(): AuthError {
  return new AuthError(422, 'user_already_exists', 'User already registered');
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;
}
