import type { IncomingMessage } from 'node:http';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { requireSession, type CurrentSession } from './current-session.ts';
import { assertNotTooSoon } from './email-links.ts';
import { renderMail } from './email-templates.ts';
import { emailTokenHash, isExpired, newEmailToken, tokenMatches } from './email-tokens.ts';
import { lockUserByEmail, lockUserById, spendEmailToken, storeEmailToken } from './email-tokens.queries.ts';
import { AuthError } from './errors.ts';
import { ok, type Reply } from './reply.ts';

/** GoTrue asks for a nonce only when the session is older than this. */
const RECENT_SIGN_IN_MS = 24 * 60 * 60 * 1000;

/**
 * GET /reauthenticate (supabase-js `reauthenticate()`): mails the signed-in user a code, the nonce that
 * `updateUser({ password, nonce })` needs when secure password change is on. The stand-in has no SMS, so
 * only an e-mail user can ask.
 */
export async function reauthenticate(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const { user } = await requireSession(context, req);
  if (!user.email) {
    throw new AuthError(
      400,
      'validation_failed',
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (!user.email_confirmed_at) {
    throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
  }
  const email = user.email;
  await context.database.transaction(async (db) => {
    const locked = await lockUserByEmail(db, email);
    if (!locked) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    assertNotTooSoon(locked.reauthentication_sent_at);
    const token = newEmailToken(email, 'implicit');
    await storeEmailToken(db, 'reauthentication', { id: locked.id, email }, token.tokenHash);
    const template = context.emailTemplates.reauthentication;
    const values = {
      to: email,
      link: '',
      siteUrl: context.redirects.siteUrl,
      redirectTo: '',
      token: token.otp,
    };
    await context.mailer.send(renderMail(template, values));
  });
  return ok({});
}

/**
 * GoTrue's check before a password change: with secure password change on, a session older than a day must
 * bring the nonce `reauthenticate` mailed, which is spent by the change.
 */
export async function assertReauthenticated(
  context: AuthContext,
  db: Db,
  { user: signedIn, session }: CurrentSession,
  nonce: string | undefined,
): Promise<void> {
  if (!context.securePasswordChange) return;
  if (Date.now() <= session.created_at.getTime() + RECENT_SIGN_IN_MS) return;
  if (!nonce) {
    throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
  }
  const user = (await lockUserById(db, signedIn.id)) ?? signedIn;
  const sentAt = user.reauthentication_sent_at;
  const valid =
    !!user.email &&
    !isExpired(sentAt) &&
    tokenMatches(user.reauthentication_token, emailTokenHash(user.email, nonce));
  if (!valid) throw new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
  await db.query('update auth.users set reauthentication_sent_at = null where id = $1', [user.id]);
  await spendEmailToken(db, user.id, 'reauthentication');
}
