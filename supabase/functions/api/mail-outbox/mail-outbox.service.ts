/**
 * Sends what the outbox holds (docs/decisions/0014), after the transaction that queued it committed:
 * first the request's own mail, then a few others still due (whose relay failed before), so a failure
 * is retried with the next mail any instance sends. A mail that cannot be sent is logged, never with
 * its content (it holds a secret link), and stays queued for a later try.
 */
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

/** Sends the outbox row `id`, then up to RETRIES_PER_DELIVERY due rows; never throws. */
export async function deliverQueuedMail(
  delivery: MailDelivery,
  id: string,
  requestId: string,
): Promise<void> {
  await deliverClaimed(delivery, () => claimMail(delivery.db.serviceStatements, [id], 1), requestId);
  await deliverClaimed(
    delivery,
    () => claimMail(delivery.db.serviceStatements, null, RETRIES_PER_DELIVERY),
    requestId,
  );
}

async function deliverClaimed(
  { db, mailer, logger }: MailDelivery,
  claim: () => Promise<ClaimedMail[]>,
  requestId: string,
): Promise<void> {
  let claimed: ClaimedMail[];
  try {
    claimed = await claim();
  } catch (error) {
    logger.warn('invitation mail not sent', { request_id: requestId, ...describeError(error) });
    return;
  }
  for (const row of claimed) {
    try {
      await mailer.send(row.mail);
      await markMailSent(db.serviceStatements, row.id);
    } catch (error) {
      logger.warn('invitation mail not sent', {
        request_id: requestId,
        invitation_id: row.invitation_id,
        ...describeError(error),
      });
    }
  }
}
