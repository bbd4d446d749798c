import { randomUUID } from 'node:crypto';

/** An e-mail as the auth service hands it over. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers the sender set, such as `List-Unsubscribe` (RFC 8058). */
  headers?: Record<string, string>;
}

/** A delivered e-mail, as `GET /api/messages` lists it. */
export interface MailboxMessage extends Mail {
  id: string;
  created_at: string;
  /** Every http(s) address in the text body, in order, for tests and scripts that follow links. */
  links?: string[];
}

export interface Mailbox {
  deliver(mail: Mail): MailboxMessage;
  /** Newest first; `to` filters by recipient, case-insensitively. */
  messages(filter?: { to?: string }): MailboxMessage[];
  clear(): void;
}

/** Old messages are dropped past this count, so a long-running stand-in does not grow without bound. */
const CAPACITY = 500;
const LINK = /https?:\/\/[^\s<>"']+/g;

/** The stand-in's in-memory mail store: what Mailpit is to `supabase start`. Nothing survives a restart. */
export function createMailbox(): Mailbox {
  const stored: MailboxMessage[] = [];
  return {
    deliver(mail) {
      const links = mail.text.match(LINK) ?? [];
      const message: MailboxMessage = {
        id: randomUUID(),
        ...mail,
        created_at: new Date().toISOString(),
        ...(links.length > 0 ? { links } : {}),
      };
      stored.push(message);
      if (stored.length > CAPACITY) stored.splice(0, stored.length - CAPACITY);
      return message;
    },
    messages(filter = {}) {
      const to = filter.to?.trim().toLowerCase();
      return stored.filter((message) => !to || message.to.toLowerCase() === to).reverse();
    },
    clear() {
      stored.length = 0;
    },
  };
}
