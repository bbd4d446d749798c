/**
 * The seam through which the API sends e-mail (docs/decisions/0008): services never send, routes hand a
 * finished mail to the Mailer in AppDeps. Production posts to an HTTP relay (http-mailer.ts), locally
 * that relay is the stand-in's mailbox, tests capture what would have gone out.
 */

/** One e-mail to one recipient, in plain text and in HTML; the sender is the mailer's to choose. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, such as `List-Unsubscribe` (RFC 8058); the relay adds them as they are. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the relay has accepted the mail; rejects when it did not. */
  send(mail: OutgoingMail): Promise<void>;
}
