import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { assertEmailFree, emailExists } from './email-change.ts';
import { actionLink, TOKEN_KIND, type LinkType, type SingleLinkType } from './email-links.ts';
import { emailTokenHash, newEmailToken } from './email-tokens.ts';
import { markInvited, registerInvitedUser } from './invite.ts';
import { lockUserByEmail, storeEmailToken } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { AuthError, validationFailed } from './errors.ts';
import { assertAcceptablePassword } from './passwords.ts';
import { isRedirectAllowed, redirectTarget } from './redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { requireAdmin } from './require-admin.ts';
import { loadUserJson } from './user-json.ts';
import { registerEmailUser } from './user-registration.ts';
import { findUserById, mergeUserMetadata, type UserRow } from './users.queries.ts';

const GenerateLinkBody = z.object({
  type: z.string().optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  redirect_to: z.string().optional(),
  new_email: z.string().optional(),
});
type GenerateLinkBody = z.infer<typeof GenerateLinkBody>;

type EmailChangeLinkType = 'email_change_current' | 'email_change_new';
type RequestedType = SingleLinkType | EmailChangeLinkType;

/**
 * POST /admin/generate_link (service_role): the link and code an e-mail would carry, without sending
 * one. A magic link for an unknown address signs the address up, as GoTrue does.
 */
export async function generateLink(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  await requireAdmin(context, req);
  const body = await readJsonBody(req, GenerateLinkBody);
  const requested = linkType(body.type);
  const email = normalizeEmail(body.email);
  const redirectTo =
    body.redirect_to && isRedirectAllowed(context.redirects, body.redirect_to)
      ? body.redirect_to
      : redirectTarget(context.redirects, url.searchParams.get('redirect_to'));
  return context.database.transaction(async (db) => {
    const token = newEmailToken(email, 'implicit');
    const { user, type, linkToken } =
      requested === 'email_change_current' || requested === 'email_change_new'
        ? await emailChangeLink(context, db, requested, email, body.new_email, token.otp)
        : await singleTokenLink(db, requested, email, body, token.tokenHash);
    const updated = await findUserById(db, user.id);
    if (!updated) throw new Error('the linked user vanished');
    return ok({
      ...(await loadUserJson(db, updated)),
      action_link: actionLink(context, linkToken, type, redirectTo),
      email_otp: token.otp,
      // As GoTrue: the hash of the code with `email`, even for an email_change_new link.
      hashed_token: token.tokenHash,
      verification_type: type === 'email_change' ? requested : type,
      redirect_to: redirectTo,
    });
  });
}

interface Linked {
  user: UserRow;
  /** The `type` of the link. */
  type: LinkType;
  linkToken: string;
}

function linkType(type: string | undefined): RequestedType {
  const known = ['signup', 'recovery', 'magiclink', 'invite', 'email_change_current', 'email_change_new'];
  if (type && known.includes(type)) return type as RequestedType;
  throw validationFailed(`Invalid email action link type requested: ${type ?? ''}`);
}

async function singleTokenLink(
  db: Db,
  requested: SingleLinkType,
  email: string,
  body: GenerateLinkBody,
  tokenHash: string,
): Promise<Linked> {
  const { user, type } = await linkedUser(db, requested, email, body);
  await storeEmailToken(db, TOKEN_KIND[type], { id: user.id, email }, tokenHash);
  if (type === 'invite') await markInvited(db, user.id);
  return { user, type, linkToken: tokenHash };
}

/** As GoTrue: the pending change is set to `new_email`, with the token of the one address asked for. */
async function emailChangeLink(
  context: AuthContext,
  db: Db,
  requested: EmailChangeLinkType,
  email: string,
  newEmailAsked: string | undefined,
  otp: string,
): Promise<Linked> {
  const user = await lockUserByEmail(db, email);
  if (!user) throw new AuthError(404, 'user_not_found', 'User with this email not found');
  if (requested === 'email_change_current' && !context.secureEmailChange) {
    throw validationFailed('Enable secure email change to generate link for current email');
  }
  const newEmail = normalizeEmail(newEmailAsked);
  await assertEmailFree(db, newEmail, user.id);
  await db.query('update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1', [
    user.id,
    newEmail,
  ]);
  const to = requested === 'email_change_current' ? email : newEmail;
  const linkToken = emailTokenHash(to, otp);
  await storeEmailToken(db, requested, { id: user.id, email: to }, linkToken);
  return { user, type: 'email_change', linkToken };
}

async function linkedUser(
  db: Db,
  requested: SingleLinkType,
  email: string,
  body: GenerateLinkBody,
): Promise<{ user: UserRow; type: SingleLinkType }> {
  const existing = await lockUserByEmail(db, email);
  if (!existing && requested === 'recovery') {
    throw new AuthError(404, 'user_not_found', 'User with this email not found');
  }
  if (requested === 'invite') return { user: await invitedUser(db, existing, email, body), type: 'invite' };
  if (existing && requested !== 'signup') return { user: existing, type: requested };
  if (existing?.email_confirmed_at) {
    throw emailExists();
  }
  if (existing) {
    if (body.data) await mergeUserMetadata(db, existing.id, body.data);
    return { user: existing, type: 'signup' };
  }
  // A magic link for a newcomer is a sign-up with a password nobody knows.
  const password = requested === 'magiclink' ? randomBytes(32).toString('base64url') : body.password;
  if (!password) throw validationFailed('Signup requires a valid password');
  assertAcceptablePassword(password, email);
  const user = await registerEmailUser(db, {
    email,
    password,
    userMetadata: body.data ?? {},
    emailConfirmed: false,
  });
  return { user, type: 'signup' };
}

async function invitedUser(
  db: Db,
  existing: UserRow | null,
  email: string,
  body: GenerateLinkBody,
): Promise<UserRow> {
  if (existing?.email_confirmed_at) throw emailExists();
  return existing ?? registerInvitedUser(db, email, body.data ?? {});
}
