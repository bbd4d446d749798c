/**
 * Sends mail by POSTing it as JSON to an HTTP relay, in the shape Resend's `POST /emails` takes
 * (`{ from, to: [...], subject, text, html }` with `Authorization: Bearer <key>`), which other relays
 * copy and the stand-in's mailbox accepts too. Redirects are not followed (the key must not travel to
 * another host) and a relay that does not answer within the timeout is given up on.
 */
import type { Mailer, OutgoingMail } from './mailer.ts';

export const MAIL_RELAY_TIMEOUT_MS = 10_000;

export interface HttpMailerOptions {
  /** The relay's endpoint, e.g. `https://api.resend.com/emails`. */
  url: string;
  /** Sent as a bearer token when set; the local mailbox needs none. */
  apiKey?: string | undefined;
  /** The sender, e.g. `Tasklane <no-reply@example.com>`. */
  from: string;
  timeoutMs?: number;
  /** A test seam; the runtime's fetch by default. */
  fetch?: typeof fetch;
}

export class MailRelayError extends Error {
  override readonly name = 'MailRelayError';
}

export function httpMailer(options: HttpMailerOptions): Mailer {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? MAIL_RELAY_TIMEOUT_MS;
  return {
    async send(mail: OutgoingMail): Promise<void> {
      const response = await send(options.url, {
        method: 'POST',
        headers: headersFor(options.apiKey),
        body: JSON.stringify({
          from: options.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.headers ? { headers: mail.headers } : {}),
        }),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Nothing in the answer is needed; reading it frees the connection.
      await response.body?.cancel();
      // Never the answer's body in the error: relays may echo the mail, which holds secret links.
      if (!response.ok) throw new MailRelayError(`The mail relay answered ${response.status}.`);
    },
  };
}

function headersFor(apiKey: string | undefined): Record<string, string> {
  const json = { 'Content-Type': 'application/json' };
  return apiKey ? { ...json, Authorization: `Bearer ${apiKey}` } : json;
}
