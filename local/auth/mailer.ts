import type { Mail } from '../mailbox/mailbox.ts';

export type { Mail };

/** How the auth service sends e-mail; the stand-in delivers to its mailbox, tests may pass their own. */
export interface Mailer {
  send(mail: Mail): Promise<void> | void;
}
