import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { anonymousSignInsDisabled } from './disabled-features.ts';
import { sendEmailLink } from './email-links.ts';
import { lockUserByEmail } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { AuthError, validationFailed } from './errors.ts';
import { insertFlowState } from './flow-state.queries.ts';
import { assertAcceptablePassword } from './passwords.ts';
import { pkceChallenge, type PkceChallenge } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { startSession } from './sessions.ts';
import { loadUserJson } from './user-json.ts';
import { registerEmailUser, type Registration } from './user-registration.ts';
import { findUserById, recordSignIn, type UserRow } from './users.queries.ts';

const SignUpBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

const UNIQUE_VIOLATION = '23505';

/**
 * POST /signup. With e-mail confirmations off (the CLI default) the user is confirmed and signed in;
 * with them on, the answer is the User alone and a confirmation link goes to the mailbox.
 */
export async function signUp(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const body = await readJsonBody(req, SignUpBody);
  // Neither an address nor a phone number is `signInAnonymously`.
  if (!body.email && !body.phone) throw anonymousSignInsDisabled();
  const email = normalizeEmail(body.email);
  if (!body.password) throw validationFailed('Signup requires a valid password');
  assertAcceptablePassword(body.password, email);
  const registration = { email, password: body.password, userMetadata: body.data ?? {} };
  const confirmation: Confirmation = {
    pkce: pkceChallenge(body.code_challenge, body.code_challenge_method),
    redirectTo: redirectTarget(context.redirects, url.searchParams.get('redirect_to')),
  };
  const answer = await context.database
    .transaction((db) =>
      context.emailConfirmations
        ? signUpToConfirm(context, db, registration, confirmation)
        : signUpConfirmed(context, db, registration),
    )
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? userAlreadyExists() : error;
    });
  return ok(answer);
}

interface Confirmation {
  pkce: PkceChallenge | null;
  redirectTo: string;
}

type Details = Omit<Registration, 'emailConfirmed'>;

async function signUpConfirmed(context: AuthContext, db: Db, registration: Details): Promise<unknown> {
  if (await lockUserByEmail(db, registration.email)) throw userAlreadyExists();
  const user = await registerEmailUser(db, { ...registration, emailConfirmed: true });
  await recordSignIn(db, user.id);
  return startSession(context, db, user);
}

/**
 * As GoTrue: a new address gets an unconfirmed user and a link; a pending one gets a fresh link (its
 * password and data stay as they were); a confirmed one gets a look-alike User, so as to reveal nothing.
 */
async function signUpToConfirm(
  context: AuthContext,
  db: Db,
  registration: Details,
  confirmation: Confirmation,
): Promise<unknown> {
  const existing = await lockUserByEmail(db, registration.email);
  if (existing?.email_confirmed_at) return obfuscatedUser(registration);
  const user = existing ?? (await registerEmailUser(db, { ...registration, emailConfirmed: false }));
  if (confirmation.pkce) {
    await insertFlowState(db, {
      userId: user.id,
      challenge: confirmation.pkce.challenge,
      method: confirmation.pkce.method,
      providerType: 'email',
      authenticationMethod: 'email/signup',
    });
  }
  await sendEmailLink(context, db, withEmail(user, registration.email), {
    type: 'signup',
    flow: confirmation.pkce ? 'pkce' : 'implicit',
    redirectTo: confirmation.redirectTo,
  });
  const updated = await findUserById(db, user.id);
  if (!updated) throw new Error('the signed-up user vanished');
  return loadUserJson(db, updated);
}

function withEmail(user: UserRow, email: string): UserRow & { email: string } {
  return { ...user, email: user.email ?? email };
}

/** GoTrue's `sanitizeUser`: a User with a random id and no identities, as if the sign-up were new. */
function obfuscatedUser({ email, userMetadata }: Details): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: userMetadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

function userAlreadyExists(): AuthError {
  return new AuthError(422, 'user_already_exists', 'User already registered');
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;
}
