import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { sendEmailLink } from './email-links.ts';
import { confirmEmail, lockUserByEmail } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { AuthError, validationFailed } from './errors.ts';
import { insertFlowState } from './flow-state.queries.ts';
import { pkceChallenge, type PkceChallenge } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { registerEmailUser } from './user-registration.ts';
import { findUserById, type UserRow } from './users.queries.ts';

const OtpBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  channel: z.string().optional(),
  create_user: z.boolean().default(true),
  data: z.record(z.string(), z.unknown()).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

interface MagicLinkAsked {
  email: string;
  data: Record<string, unknown>;
  pkce: PkceChallenge | null;
  redirectTo: string;
}

/**
 * POST /otp?redirect_to= (supabase-js `signInWithOtp({ email })`), GoTrue's magic link: a confirmed user is
 * mailed a link and a code; anyone else is signed up (unless `create_user` is false) and mailed too. Answers
 * `{}` either way, so that it tells nobody which addresses have accounts.
 */
export async function otp(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const body = await readJsonBody(req, OtpBody);
  if (body.email && body.phone) {
    throw validationFailed('Only an email address or phone number should be provided');
  }
  if (body.email && body.channel) throw validationFailed('Channel should only be specified with Phone OTP');
  const pkce = pkceChallenge(body.code_challenge, body.code_challenge_method);
  // The stand-in has no SMS provider, as the CLI's default config.
  if (body.phone) throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
  if (!body.email) throw validationFailed('One of email or phone must be set');
  const asked: MagicLinkAsked = {
    email: normalizeEmail(body.email),
    data: body.data ?? {},
    pkce,
    redirectTo: redirectTarget(context.redirects, url.searchParams.get('redirect_to')),
  };
  await context.database.transaction(async (db) => {
    const user = await lockUserByEmail(db, asked.email);
    if (!user && !body.create_user) throw signupsNotAllowed();
    if (user?.email_confirmed_at) await mailMagicLink(context, db, user, asked);
    else await signUpByMail(context, db, user, asked);
  });
  return ok({});
}

/**
 * GoTrue signs a newcomer (or a user still unconfirmed) up with a password nobody knows: with confirmations
 * off the user is confirmed and gets the magic link; with them on, the confirmation mail is the link.
 */
async function signUpByMail(
  context: AuthContext,
  db: Db,
  existing: UserRow | null,
  asked: MagicLinkAsked,
): Promise<void> {
  const user =
    existing ??
    (await registerEmailUser(db, {
      email: asked.email,
      password: randomBytes(32).toString('base64url'),
      userMetadata: asked.data,
      emailConfirmed: false,
    }));
  if (!context.emailConfirmations) {
    await confirmEmail(db, user.id);
    const confirmed = await findUserById(db, user.id);
    if (!confirmed) throw new Error('the signed-up user vanished');
    return mailMagicLink(context, db, confirmed, asked);
  }
  if (asked.pkce) await startFlow(db, user, asked.pkce, 'email', 'email/signup');
  await sendEmailLink(context, db, withEmail(user, asked.email), {
    type: 'signup',
    flow: asked.pkce ? 'pkce' : 'implicit',
    redirectTo: asked.redirectTo,
  });
}

async function mailMagicLink(
  context: AuthContext,
  db: Db,
  user: UserRow,
  asked: MagicLinkAsked,
): Promise<void> {
  if (asked.pkce) await startFlow(db, user, asked.pkce, 'magiclink', 'magiclink');
  await sendEmailLink(context, db, withEmail(user, asked.email), {
    type: 'magiclink',
    flow: asked.pkce ? 'pkce' : 'implicit',
    redirectTo: asked.redirectTo,
  });
}

function startFlow(
  db: Db,
  user: UserRow,
  pkce: PkceChallenge,
  providerType: string,
  authenticationMethod: 'magiclink' | 'email/signup',
): Promise<void> {
  return insertFlowState(db, {
    userId: user.id,
    challenge: pkce.challenge,
    method: pkce.method,
    providerType,
    authenticationMethod,
  });
}

function withEmail(user: UserRow, email: string): UserRow & { email: string } {
  return { ...user, email: user.email ?? email };
}

function signupsNotAllowed(): AuthError {
  return new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
}
