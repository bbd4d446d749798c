import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { actionLink, TOKEN_KIND, type LinkType } from './email-links.ts';
import { newEmailToken } from './email-tokens.ts';
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
});
type GenerateLinkBody = z.infer<typeof GenerateLinkBody>;

const NOT_YET = new Set(['invite', 'email_change_current', 'email_change_new']);

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
    const { user, type } = await linkedUser(db, requested, email, body);
    const token = newEmailToken(email, 'implicit');
    await storeEmailToken(db, TOKEN_KIND[type], { id: user.id, email }, token.tokenHash);
    const updated = await findUserById(db, user.id);
    if (!updated) throw new Error('the linked user vanished');
    return ok({
      ...(await loadUserJson(db, updated)),
      action_link: actionLink(context, token.tokenHash, type, redirectTo),
      email_otp: token.otp,
      hashed_token: token.tokenHash,
      verification_type: type,
      redirect_to: redirectTo,
    });
  });
}

function linkType(type: string | undefined): LinkType {
  if (type === 'signup' || type === 'recovery' || type === 'magiclink') return type;
  if (type && NOT_YET.has(type)) {
    throw new AuthError(422, 'feature_disabled', `The stand-in does not generate ${type} links yet`);
  }
  throw validationFailed(`Invalid email action link type requested: ${type ?? ''}`);
}

async function linkedUser(
  db: Db,
  requested: LinkType,
  email: string,
  body: GenerateLinkBody,
): Promise<{ user: UserRow; type: LinkType }> {
  const existing = await lockUserByEmail(db, email);
  if (!existing && requested === 'recovery') {
    throw new AuthError(404, 'user_not_found', 'User with this email not found');
  }
  if (existing && requested !== 'signup') return { user: existing, type: requested };
  if (existing?.email_confirmed_at) {
    throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
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
