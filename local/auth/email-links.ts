import type { Db } from '../db.ts';
import type { AuthContext } from './context.ts';
import { renderMail, type TemplateName } from './email-templates.ts';
import { EMAIL_MAX_FREQUENCY_SECONDS, newEmailToken, type FlowType } from './email-tokens.ts';
import { storeEmailToken, type EmailTokenKind } from './email-tokens.queries.ts';
import { AuthError } from './errors.ts';
import type { UserRow } from './users.queries.ts';

/** The `type` an e-mail link carries to `/verify`. */
export type LinkType = 'signup' | 'recovery' | 'magiclink' | 'invite' | 'email_change';
/** The links of one token each; an e-mail change has two (see email-change.ts). */
export type SingleLinkType = Exclude<LinkType, 'email_change'>;

export const TOKEN_KIND: Record<SingleLinkType, EmailTokenKind> = {
  signup: 'confirmation',
  recovery: 'recovery',
  magiclink: 'recovery',
  invite: 'confirmation',
};

/**
 * GoTrue's `{{ .ConfirmationURL }}`: `redirect_to` goes in as it is unless it holds `&`, `=` or `#`
 * (GoTrue's `encodeRedirectURL`), so the links look exactly like hosted Supabase's.
 */
export function actionLink(context: AuthContext, token: string, type: LinkType, redirectTo: string): string {
  const redirect = /[&=#]/.test(redirectTo) ? encodeURIComponent(redirectTo) : redirectTo;
  return `${context.externalUrl}/verify?token=${encodeURIComponent(token)}&type=${type}&redirect_to=${redirect}`;
}

const TEMPLATE: Record<SingleLinkType, TemplateName> = {
  signup: 'confirmation',
  recovery: 'recovery',
  magiclink: 'magic_link',
  invite: 'invite',
};

export interface EmailLinkRequest {
  type: SingleLinkType;
  flow: FlowType;
  redirectTo: string;
}

/**
 * Issues a one-time token of the link's kind and mails the link to the (locked) user, at most
 * once per `max_frequency` (GoTrue answers 429 `over_email_send_rate_limit` sooner than that).
 */
export async function sendEmailLink(
  context: AuthContext,
  db: Db,
  user: UserRow & { email: string },
  request: EmailLinkRequest,
): Promise<void> {
  const kind = TOKEN_KIND[request.type];
  // GoTrue sends invitations without max_frequency's check.
  if (request.type !== 'invite') {
    assertNotTooSoon(kind === 'recovery' ? user.recovery_sent_at : user.confirmation_sent_at);
  }
  const token = newEmailToken(user.email, request.flow);
  await storeEmailToken(db, kind, user, token.tokenHash);
  const link = actionLink(context, token.tokenHash, request.type, request.redirectTo);
  const template = context.emailTemplates[TEMPLATE[request.type]];
  const values = { to: user.email, link, siteUrl: context.redirects.siteUrl, redirectTo: request.redirectTo };
  await context.mailer.send(renderMail(template, values));
}

export function assertNotTooSoon(sentAt: Date | null): void {
  if (!sentAt) return;
  const waitMs = sentAt.getTime() + EMAIL_MAX_FREQUENCY_SECONDS * 1000 - Date.now();
  if (waitMs <= 0) return;
  throw new AuthError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${Math.floor(waitMs / 1000)} seconds.`,
  );
}
