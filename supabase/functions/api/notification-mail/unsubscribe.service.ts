/**
 * One click on a notification mail's unsubscribe link (RFC 8058): the mail's types are mailed no more to
 * the person it went to (their inbox still tells them). No sign-in: the signed token is the authority.
 */
import type { MailUnsubscribed } from '../../_shared/api-types.ts';
import type { Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { selectUnsubscribeSigningKey, unsubscribeFromMail } from './notification-mail.queries.ts';
import { verifyUnsubscribeToken } from './unsubscribe-token.ts';

export async function unsubscribe(db: Database, token: string): Promise<MailUnsubscribed> {
  const key = await db.serviceStatements(selectUnsubscribeSigningKey);
  const grant = await verifyUnsubscribeToken(key, token);
  if (!grant) throw invalidUnsubscribeLink();
  await db.serviceStatements((sql) => unsubscribeFromMail(sql, grant.userId, grant.types));
  return { object: 'mail_unsubscribed', types: grant.types };
}

export function invalidUnsubscribeLink(): AppError {
  return new AppError('not_found', 'This unsubscribe link is not valid.');
}
