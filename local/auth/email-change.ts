import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { actionLink, assertNotTooSoon } from './email-links.ts';
import { renderMail } from './email-templates.ts';
import { newEmailToken, type FlowType } from './email-tokens.ts';
import {
  lockUserById,
  spendEmailToken,
  storeEmailToken,
  type EmailTokenKind,
} from './email-tokens.queries.ts';
import { AuthError } from './errors.ts';
import { insertFlowState } from './flow-state.queries.ts';
import type { PkceChallenge } from './pkce.ts';
import type { UserRow } from './users.queries.ts';

export const emailExists = () =>
  new AuthError(422, 'email_exists', 'A user with this email address has already been registered');

/** GoTrue's answer to the first of two confirmations of a secure e-mail change. */
export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** 422 `email_exists` if another user has the address. */
export async function assertEmailFree(db: Db, email: string, userId: string): Promise<void> {
  const { rows } = await db.query(
    `select 1 from auth.users
     where lower(email) = lower($1) and id <> $2 and is_sso_user = false and deleted_at is null`,
    [email, userId],
  );
  if (rows.length > 0) throw emailExists();
}

export interface EmailChangeAsked {
  newEmail: string;
  pkce: PkceChallenge | null;
  redirectTo: string;
}

/**
 * GoTrue's e-mail change: a link to the new address and, with secure e-mail change on, one to the current
 * address too. The address itself changes only when they are followed (see `confirmEmailChange`).
 */
export async function requestEmailChange(
  context: AuthContext,
  db: Db,
  userId: string,
  asked: EmailChangeAsked,
): Promise<void> {
  const user = await lockUserById(db, userId);
  if (!user) throw new Error('the user changing its e-mail vanished');
  assertNotTooSoon(user.email_change_sent_at);
  const flow: FlowType = asked.pkce ? 'pkce' : 'implicit';
  if (asked.pkce) {
    await insertFlowState(db, {
      userId,
      challenge: asked.pkce.challenge,
      method: asked.pkce.method,
      providerType: 'email_change',
      authenticationMethod: 'email_change',
    });
  }
  await db.query('update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1', [
    userId,
    asked.newEmail,
  ]);
  // A current-address token of an earlier request must not outlive it when only the new address is asked.
  await spendEmailToken(db, userId, 'email_change_current');
  const recipients: { kind: EmailTokenKind; to: string }[] = [
    { kind: 'email_change_new', to: asked.newEmail },
  ];
  if (context.secureEmailChange && user.email)
    recipients.push({ kind: 'email_change_current', to: user.email });
  for (const { kind, to } of recipients) {
    const token = newEmailToken(to, flow);
    await storeEmailToken(db, kind, { id: userId, email: to }, token.tokenHash);
    const values = {
      to,
      link: actionLink(context, token.tokenHash, 'email_change', asked.redirectTo),
      siteUrl: context.redirects.siteUrl,
      redirectTo: asked.redirectTo,
      email: user.email ?? '',
      newEmail: asked.newEmail,
    };
    await context.mailer.send(renderMail(context.emailTemplates.email_change, values));
  }
}

/**
 * A followed e-mail change link (or its code). With confirmations on and secure e-mail change, the first of
 * the two only spends its token and answers `null`; otherwise the address switches to the new one.
 */
export async function confirmEmailChange(
  context: AuthContext,
  db: Db,
  user: UserRow,
  kind: EmailTokenKind,
): Promise<UserRow | null> {
  const needsBoth = context.emailConfirmations && context.secureEmailChange && !!user.email;
  if (needsBoth && user.email_change_confirm_status === 0) {
    await db.query('update auth.users set email_change_confirm_status = 1 where id = $1', [user.id]);
    await spendEmailToken(db, user.id, kind);
    return null;
  }
  await db.query(
    `update auth.users set email = email_change, email_change = '', email_change_token_current = '',
       email_change_token_new = '', email_change_confirm_status = 0, updated_at = now()
     where id = $1`,
    [user.id],
  );
  await db.query(
    `update auth.identities
     set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
       updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [user.id, user.email_change],
  );
  await db.query('delete from auth.one_time_tokens where user_id = $1', [user.id]);
  const updated = await lockUserById(db, user.id);
  if (!updated) throw new Error('the user changing its e-mail vanished');
  return updated;
}
