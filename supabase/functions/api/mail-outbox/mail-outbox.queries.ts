/**
 * SQL for the mail outbox (private.mail_outbox, docs/decisions/0014): invitations, and a person's
 * notification mail (0048). The caller queues an invitation's mail in the invitation's own transaction
 * (`private.enqueue_invitation_mail`), claimed for itself; the notification sender queues a person's
 * (`private.enqueue_notification_mail`, notification-mail.queries.ts). The service marks mail sent, and
 * claims and marks others due for a retry, after the transaction that queued them committed.
 * A claim moves the row's next attempt past a back-off, so two senders never send the same row at once,
 * and a sender that dies leaves it due again later.
 */
import type { Sql } from '../../_shared/db.ts';
import type { OutgoingMail } from '../../_shared/mail/mailer.ts';

/** Tries per mail; after them the invitation's link is shared by hand, as the 201 answer holds it. */
export const MAIL_ATTEMPTS = 5;

export interface ClaimedMail extends Record<string, unknown> {
  id: string;
  /** The invitation the mail is for, or null for a person's notification mail. */
  invitation_id: string | null;
  /** The person a notification mail goes to; null for an invitation. */
  user_id: string | null;
  mail: OutgoingMail;
}

/**
 * Queues the mail of the invitation whose token has this hash, which the caller created in this
 * transaction (found by its hash, so that the statement goes right behind the creation, in its round
 * trip); the outbox row's id. The row is claimed for this request: it is due for others only later.
 */
export async function enqueueInvitationMail(
  sql: Sql,
  tokenHashHex: string,
  mail: OutgoingMail,
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `select private.enqueue_invitation_mail(
       (select i.id from public.invitations i where i.token_hash = decode($1, 'hex')), $2) as id`,
    [tokenHashHex, JSON.stringify(mail)],
  );
  if (!row) throw new Error('private.enqueue_invitation_mail returned no row');
  return row.id;
}

// Only mail that can still help: unsent, due, tries left, and an invitation's still pending and unexpired.
const CLAIMABLE = `o.sent_at is null and o.next_attempt_at <= now() and o.attempts < ${MAIL_ATTEMPTS}
  and (o.invitation_id is null or exists (
    select 1 from public.invitations i
    where i.id = o.invitation_id and i.status = 'pending' and i.expires_at > now()))`;

/** Claims the outbox rows `ids` that are due (all due rows, up to `limit`, when `ids` is null). */
export function claimMail(sql: Sql, ids: readonly string[] | null, limit: number): Promise<ClaimedMail[]> {
  return sql.query<ClaimedMail>(
    `update private.mail_outbox u
     set attempts = u.attempts + 1,
       next_attempt_at = now() + interval '1 minute' * power(4, u.attempts)
     where u.id in (
       select o.id from private.mail_outbox o
       where ${CLAIMABLE} and ($1::uuid[] is null or o.id = any($1::uuid[]))
       order by o.next_attempt_at limit $2
       for update skip locked)
     returning u.id, u.invitation_id, u.user_id, u.mail`,
    [ids, limit],
  );
}

/** Marks the row sent and drops its mail, which holds a secret link. */
export async function markMailSent(sql: Sql, id: string): Promise<void> {
  await sql.query('update private.mail_outbox set sent_at = now(), mail = null where id = $1', [id]);
}
