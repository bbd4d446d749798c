import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { emailExists } from './email-change.ts';
import { sendEmailLink } from './email-links.ts';
import { lockUserByEmail } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { redirectTarget } from './redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { requireAdmin } from './require-admin.ts';
import { loadUserJson } from './user-json.ts';
import { registerEmailUser } from './user-registration.ts';
import { findUserById, type UserRow } from './users.queries.ts';

const InviteBody = z.object({
  email: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * POST /invite?redirect_to= (service_role; supabase-js `auth.admin.inviteUserByEmail`): signs the address up
 * unconfirmed, stamps `invited_at` and mails the invitation link (`type=invite`), which confirms the address
 * and signs in. An unconfirmed user is invited again; a confirmed one is 422 `email_exists`.
 */
export async function invite(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  await requireAdmin(context, req);
  const body = await readJsonBody(req, InviteBody);
  const email = normalizeEmail(body.email);
  const redirectTo = redirectTarget(context.redirects, url.searchParams.get('redirect_to'));
  return context.database.transaction(async (db) => {
    const existing = await lockUserByEmail(db, email);
    if (existing?.email_confirmed_at) throw emailExists();
    const user = existing ?? (await registerInvitedUser(db, email, body.data ?? {}));
    await sendEmailLink(context, db, { ...user, email }, { type: 'invite', flow: 'implicit', redirectTo });
    await markInvited(db, user.id);
    const invited = await findUserById(db, user.id);
    if (!invited) throw new Error('the invited user vanished');
    return ok(await loadUserJson(db, invited));
  });
}

/** An invited user has no password of its own until it sets one; this one nobody knows. */
export function registerInvitedUser(db: Db, email: string, data: Record<string, unknown>): Promise<UserRow> {
  return registerEmailUser(db, {
    email,
    password: randomBytes(32).toString('base64url'),
    userMetadata: data,
    emailConfirmed: false,
  });
}

export async function markInvited(db: Db, userId: string): Promise<void> {
  await db.query('update auth.users set invited_at = now() where id = $1', [userId]);
}
