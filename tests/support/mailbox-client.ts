import type { MailboxMessage } from '../../local/mailbox/mailbox.ts';
import type { StandInProcess } from './stand-in-process.ts';

export function mailboxUrl(standIn: StandInProcess): string {
  return `http://127.0.0.1:${standIn.ports.mailbox}`;
}

/** The stand-in's mailbox as `GET /api/messages?to=` lists it: newest first. */
export async function mailTo(standIn: StandInProcess, email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl(standIn)}/api/messages?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
  return ((await response.json()) as { messages: MailboxMessage[] }).messages;
}

/** The newest mail to `email`; the stand-in delivers before it answers, so there is no waiting. */
export async function latestMailTo(standIn: StandInProcess, email: string): Promise<MailboxMessage> {
  const [latest] = await mailTo(standIn, email);
  if (!latest) throw new Error(`no mail to ${email}`);
  return latest;
}

/** The `/auth/v1/verify` link of an auth e-mail. */
export function verifyLinkIn(message: MailboxMessage): string {
  const link = message.links?.find((candidate) => candidate.includes('/auth/v1/verify?'));
  if (!link) throw new Error(`no verify link in "${message.subject}"`);
  return link;
}

/** Throws if an auth e-mail holds a 6-digit code: Tasklane's mails carry only the link (the usability review item 14). */
export function expectNoCodeIn(message: MailboxMessage): void {
  const code = /\b\d{6}\b/.exec(`${message.text}\n${message.html ?? ''}`)?.[0];
  if (code) throw new Error(`"${message.subject}" holds the code ${code}`);
}

/** Opens an e-mail link as a browser would, without following the redirect: its 303 and Location. */
export async function openLink(link: string): Promise<{ status: number; location: URL }> {
  const response = await fetch(link, { redirect: 'manual' });
  return { status: response.status, location: new URL(response.headers.get('location') ?? '') };
}

/** The form-encoded hash of a redirect, as auth-js reads it. */
export function hashParams(location: URL): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
}
