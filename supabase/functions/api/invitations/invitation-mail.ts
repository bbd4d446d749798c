/** The e-mail that carries an invitation's link to the invited address. */
import { escapeHtml } from '../../_shared/mail/escape-html.ts';
import type { OutgoingMail } from '../../_shared/mail/mailer.ts';
import { singleLine } from '../../_shared/mail/single-line.ts';
import type { NewInvitation } from '../../_shared/api-types.ts';

/** What an invitation's e-mail says: known before the invitation is written, so it goes with it. */
export interface InvitationMailInput {
  invitation: Pick<NewInvitation, 'email' | 'role' | 'expires_at' | 'accept_url'>;
  workspaceName: string;
  inviterName: string;
}

export function invitationMail({
  invitation,
  inviterName,
  workspaceName,
}: InvitationMailInput): OutgoingMail {
  const inviter = singleLine(inviterName);
  const workspace = singleLine(workspaceName);
  const expires = formatExpiry(invitation.expires_at);
  const role = `${/^[aeiou]/.test(invitation.role) ? 'an' : 'a'} ${invitation.role}`;
  const link = mailedLink(invitation);
  return {
    to: invitation.email,
    subject: `${inviter} invited you to ${workspace} on Tasklane`,
    text: [
      `${inviter} invited you to join ${workspace} on Tasklane as ${role}.`,
      '',
      'Accept the invitation:',
      link,
      '',
      `The link works until ${expires}, for ${invitation.email} only. If you did not expect this invitation, ignore this e-mail.`,
      '',
    ].join('\n'),
    html: [
      `<p>${escapeHtml(inviter)} invited you to join <strong>${escapeHtml(workspace)}</strong> on Tasklane as ${role}.</p>`,
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
      `<p>The link works until ${escapeHtml(expires)}, for ${escapeHtml(invitation.email)} only. If you did not expect this invitation, ignore this e-mail.</p>`,
    ].join('\n'),
  };
}

/**
 * The accept URL with the invited address in its fragment, so the page can fill it in for someone
 * signing up; a fragment never reaches a server, a log or a Referer. The API itself never tells a
 * signed-out holder of the link the address (docs/decisions/0042).
 */
function mailedLink(invitation: InvitationMailInput['invitation']): string {
  return `${invitation.accept_url}#email=${encodeURIComponent(invitation.email)}`;
}

/** E.g. "29 November 2026, 09:00 UTC": unambiguous wherever the reader is. */
function formatExpiry(isoTimestamp: string): string {
  const date = new Date(isoTimestamp);
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  return `${day.format(date)}, ${time.format(date)} UTC`;
}
