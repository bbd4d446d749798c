/**
 * Sends the notification mail that is due (docs/decisions/0048): run every minute by the scheduler
 * (POST /v1/internal/notification-mail). Writes the due-date reminders due now, reads who is due a mail, writes each one, queues it in the outbox
 * while marking its notifications mailed (so two runs never mail them twice), then sends what the outbox
 * holds, retries included. At least once: a run that dies after queueing leaves the mail due in the outbox.
 */
import type { Database } from '../../_shared/db.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { Mailer } from '../../_shared/mail/mailer.ts';
import { sendDueMail } from '../mail-outbox/mail-outbox.service.ts';
import { notificationMail, typesOf } from './notification-mail-content.ts';
import {
  enqueueNotificationMail,
  notifyDueTasks,
  selectDueNotificationMail,
  selectUnsubscribeSigningKey,
  type DueMailRow,
} from './notification-mail.queries.ts';
import { signUnsubscribeToken } from './unsubscribe-token.ts';

/** How long the first of a person's "at once" notifications waits for others to join its mail. */
export const NOTIFICATION_MAIL_BATCH_SECONDS = 120;
/** The digest goes at this hour, in the person's time zone. */
export const DIGEST_HOUR = 8;
/** People mailed per run; the rest are due at the next one. */
const PEOPLE_PER_RUN = 100;
/** Outbox rows sent per run. */
const MAILS_SENT_PER_RUN = 200;

export interface NotificationMailDeps {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  apiUrl: string;
  batchWindowSeconds?: number;
}

export interface NotificationMailRun {
  queued: number;
  sent: number;
}

export async function sendNotificationMail(
  deps: NotificationMailDeps,
  requestId: string,
): Promise<NotificationMailRun> {
  // One round trip: the due-date reminders first, so a reminder due now is among what is mailed.
  const [, due, key] = await deps.db.serviceStatements((sql) =>
    Promise.all([
      notifyDueTasks(sql),
      selectDueNotificationMail(sql, {
        batchWindowSeconds: deps.batchWindowSeconds ?? NOTIFICATION_MAIL_BATCH_SECONDS,
        digestHour: DIGEST_HOUR,
        maxPeople: PEOPLE_PER_RUN,
      }),
      selectUnsubscribeSigningKey(sql),
    ]),
  );
  const mails = await Promise.all(due.map((row) => mailOf(deps, row, key)));
  const queued = await deps.db.serviceStatements((sql) =>
    Promise.all(
      due.map((row, index) =>
        enqueueNotificationMail(sql, row.user_id, row.notification_ids, mails[index] ?? null),
      ),
    ),
  );
  const sent = await sendDueMail(deps, MAILS_SENT_PER_RUN, requestId);
  return { queued: queued.filter((id) => id !== null).length, sent };
}

/** The person's mail, or null when everything it would tell of was read meanwhile. */
async function mailOf(deps: NotificationMailDeps, row: DueMailRow, key: Uint8Array<ArrayBuffer>) {
  if (row.items.length === 0) return null;
  return notificationMail({
    to: row.email,
    digest: row.digest,
    items: row.items,
    appUrl: deps.appUrl,
    apiUrl: deps.apiUrl,
    unsubscribeToken: await signUnsubscribeToken(key, { userId: row.user_id, types: typesOf(row.items) }),
  });
}
