/**
 * Sends what the outbox holds (docs/decisions/0014), after the transaction that queued it committed:
 * first the request's own mail, then a few others still due (whose relay failed before), so a failure
 * is retried with the next mail any instance sends. A mail that cannot be sent is logged, never with
 * its content (it holds a secret link), and stays queued for a later try. The answer waits for the
 * request's own mail to be tried, not for the rest (docs/decisions/0016).
 */
import { runAfterResponse } from '../../_shared/after-response.ts';
import type { Database } from '../../_shared/db.ts';
import { describeError } from '../../_shared/describe-error.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { Mailer } from '../../_shared/mail/mailer.ts';
import { claimMail, markMailSent, type ClaimedMail } from './mail-outbox.queries.ts';

/** Earlier failures retried after each mail sent. */
const RETRIES_PER_DELIVERY = 5;

export interface MailDelivery {
  db: Database;
  mailer: Mailer;
  logger: Logger;
}

/**
 * Sends the request's own mail, queued claimed for it (`own`); then, without the caller waiting, marks
 * it sent and claims up to RETRIES_PER_DELIVERY due rows in one round trip, and sends those. Never
 * throws. If the marking is lost (the instance ends first), the mail stays due and is sent again.
 */
export async function deliverQueuedMail(
  delivery: MailDelivery,
  own: ClaimedMail,
  requestId: string,
): Promise<void> {
  const sent = await send(delivery, own, requestId);
  void runAfterResponse(
    () => markSentAndRetry(delivery, own, sent, requestId),
    (error) => notSent(delivery, requestId, error),
  );
}

/** Marks the request's own mail sent (if it was) and claims the due ones, in one round trip; sends those. */
async function markSentAndRetry(
  delivery: MailDelivery,
  own: ClaimedMail,
  sent: boolean,
  requestId: string,
): Promise<void> {
  let outcomes;
  try {
    outcomes = await delivery.db.serviceStatements((sql) =>
      Promise.allSettled([
        sent ? markMailSent(sql, own.id) : Promise.resolve(),
        claimMail(sql, null, RETRIES_PER_DELIVERY),
      ]),
    );
  } catch (error) {
    return notSent(delivery, requestId, error, own);
  }
  const [marked, claimed] = outcomes;
  if (marked.status === 'rejected') notSent(delivery, requestId, marked.reason, own);
  if (claimed.status === 'rejected') return notSent(delivery, requestId, claimed.reason);
  await sendClaimed(delivery, claimed.value, requestId);
}

/**
 * Claims up to `limit` due rows of the outbox and sends them, marking each sent; how many went. Never
 * throws: what could not be claimed, sent or marked is logged and stays due.
 */
export async function sendDueMail(delivery: MailDelivery, limit: number, requestId: string): Promise<number> {
  let claimed: ClaimedMail[];
  try {
    claimed = await delivery.db.serviceStatements((sql) => claimMail(sql, null, limit));
  } catch (error) {
    notSent(delivery, requestId, error);
    return 0;
  }
  return sendClaimed(delivery, claimed, requestId);
}

/** Sends each claimed row and marks it sent; how many the relay took. */
async function sendClaimed(
  delivery: MailDelivery,
  rows: readonly ClaimedMail[],
  requestId: string,
): Promise<number> {
  let sent = 0;
  for (const row of rows) {
    if (!(await send(delivery, row, requestId))) continue;
    sent += 1;
    await delivery.db
      .serviceStatements((sql) => markMailSent(sql, row.id))
      .catch((error: unknown) => notSent(delivery, requestId, error, row));
  }
  return sent;
}

/** Hands `row`'s mail to the relay; whether it took it (a refusal is logged). */
async function send(delivery: MailDelivery, row: ClaimedMail, requestId: string): Promise<boolean> {
  try {
    await delivery.mailer.send(row.mail);
    return true;
  } catch (error) {
    notSent(delivery, requestId, error, row);
    return false;
  }
}

/** Logs a mail not sent (or not marked sent), never with its content: it holds a secret link. */
function notSent({ logger }: MailDelivery, requestId: string, error: unknown, row?: ClaimedMail): void {
  logger.warn(row?.user_id ? 'notification mail not sent' : 'invitation mail not sent', {
    request_id: requestId,
    ...(row?.invitation_id ? { invitation_id: row.invitation_id } : {}),
    ...(row?.user_id ? { user_id: row.user_id } : {}),
    ...describeError(error),
  });
}
