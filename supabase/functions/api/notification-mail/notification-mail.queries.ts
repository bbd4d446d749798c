/**
 * SQL for notification mail (docs/decisions/0048), run as the service: who is due a mail and what it tells
 * of, queueing it in the outbox while marking its notifications mailed, the unsubscribe links' signing
 * key, and unsubscribing.
 */
import type { NotificationType } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import type { OutgoingMail } from '../../_shared/mail/mailer.ts';

/** One notification as a mail tells of it. */
export interface MailItem {
  type: NotificationType;
  workspace_name: string;
  workspace_slug: string;
  project_key: string | null;
  task_number: number | null;
  task_title: string | null;
  actor_name: string | null;
  comment_id: string | null;
  comment_body: string | null;
  change_count: number;
  due_date: string | null;
}

export interface DueMailRow extends Record<string, unknown> {
  user_id: string;
  email: string;
  digest: boolean;
  /** Every notification the mail settles, those read meanwhile included. */
  notification_ids: string[];
  /** Those still unread, oldest first: what the mail tells of. */
  items: MailItem[];
}

export interface DueMailOptions {
  batchWindowSeconds: number;
  digestHour: number;
  maxPeople: number;
}

/** Writes the due-date reminders due now (once per task and due date); how many. */
export async function notifyDueTasks(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ written: string }>('select private.notify_due_tasks() as written');
  return Number(row?.written ?? 0);
}

export function selectDueNotificationMail(sql: Sql, options: DueMailOptions): Promise<DueMailRow[]> {
  return sql.query<DueMailRow>(
    `select user_id, email, digest, notification_ids, items
     from private.notification_mail_due(make_interval(secs => $1), $2, $3)`,
    [options.batchWindowSeconds, options.digestHour, options.maxPeople],
  );
}

/** Queues `mail` (none: nothing left to tell) for `userId`, settling `notificationIds`; the row, if queued. */
export async function enqueueNotificationMail(
  sql: Sql,
  userId: string,
  notificationIds: readonly string[],
  mail: OutgoingMail | null,
): Promise<string | null> {
  const [row] = await sql.query<{ id: string | null }>(
    'select private.enqueue_notification_mail($1, $2, $3) as id',
    [userId, notificationIds, mail && JSON.stringify(mail)],
  );
  return row?.id ?? null;
}

export async function selectUnsubscribeSigningKey(sql: Sql): Promise<Uint8Array<ArrayBuffer>> {
  const [row] = await sql.query<{ key: Uint8Array | null }>(
    'select private.unsubscribe_signing_key() as key',
  );
  if (!row?.key) throw new Error('private.signing_keys has no unsubscribe key');
  return new Uint8Array(row.key);
}

export async function unsubscribeFromMail(
  sql: Sql,
  userId: string,
  types: readonly NotificationType[],
): Promise<void> {
  await sql.query('select 1 from private.unsubscribe_from_mail($1, $2)', [userId, types]);
}
