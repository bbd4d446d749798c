/** The mailer when no relay is configured: every mail is dropped, and the log says so (never what it held). */
import type { Logger } from '../logger.ts';
import type { Mailer } from './mailer.ts';

export function unsentMailer(logger: Logger): Mailer {
  return {
    send() {
      logger.warn('mail not sent: MAIL_API_URL is not set');
      return Promise.resolve();
    },
  };
}
