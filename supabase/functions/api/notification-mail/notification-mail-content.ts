/**
 * The notification mail a person gets (docs/decisions/0048): at once, a few notifications batched; or
 * the daily digest. Each item says what happened, names the task and links to it (at the comment, when
 * there is one); the mail ends with a one-click unsubscribe (RFC 8058) from the types it told of.
 */
import type { NotificationType } from '../../_shared/api-types.ts';
import { escapeHtml } from '../../_shared/mail/escape-html.ts';
import type { OutgoingMail } from '../../_shared/mail/mailer.ts';
import { singleLine } from '../../_shared/mail/single-line.ts';
import { notificationSentence } from '../../_shared/notification-sentence.ts';
import type { MailItem } from './notification-mail.queries.ts';

/** A comment is quoted up to this many characters. */
const EXCERPT_LENGTH = 280;

export interface NotificationMailInput {
  to: string;
  digest: boolean;
  items: readonly MailItem[];
  /** The web app's address: links to tasks and to the unsubscribe page. */
  appUrl: string;
  /** The API's address: the one-click unsubscribe target of `List-Unsubscribe`. */
  apiUrl: string;
  unsubscribeToken: string;
}

export function notificationMail(input: NotificationMailInput): OutgoingMail {
  const { items, appUrl, apiUrl, unsubscribeToken } = input;
  const unsubscribePage = `${appUrl}/unsubscribe/${unsubscribeToken}`;
  const settingsPage = `${appUrl}/account#notifications`;
  const entries = items.map((item) => entryOf(item, appUrl));
  return {
    to: input.to,
    subject: subjectOf(input),
    text: [
      ...entries.flatMap((entry) => [
        entry.sentence,
        ...(entry.title ? [entry.title] : []),
        ...(entry.excerpt ? [`> ${entry.excerpt}`] : []),
        ...(entry.link ? [entry.link] : []),
        '',
      ]),
      '—',
      `You get these e-mails because of your notification settings: ${settingsPage}`,
      `Unsubscribe from them: ${unsubscribePage}`,
      '',
    ].join('\n'),
    html: [
      ...entries.map(
        (entry) =>
          `<p><strong>${escapeHtml(entry.sentence)}</strong>` +
          (entry.title ? `<br>${linked(entry.title, entry.link)}` : '') +
          '</p>' +
          (entry.excerpt ? `<blockquote>${escapeHtml(entry.excerpt)}</blockquote>` : ''),
      ),
      '<hr>',
      `<p>You get these e-mails because of your <a href="${escapeHtml(settingsPage)}">notification settings</a>. ` +
        `<a href="${escapeHtml(unsubscribePage)}">Unsubscribe</a></p>`,
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${apiUrl}/v1/notification-unsubscribe/${unsubscribeToken}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The notification types a mail tells of: what its unsubscribe link turns off. */
export function typesOf(items: readonly MailItem[]): NotificationType[] {
  return [...new Set(items.map((item) => item.type))];
}

function subjectOf({ digest, items }: NotificationMailInput): string {
  if (digest) return `Your Tasklane digest: ${countOf(items.length)}`;
  const [only] = items;
  if (items.length === 1 && only) {
    const sentence = sentenceOf(only);
    return singleLine(only.task_title ? `${sentence}: ${only.task_title}` : sentence);
  }
  return `${countOf(items.length)} in Tasklane`;
}

const countOf = (count: number) => `${count} new notification${count === 1 ? '' : 's'}`;

interface Entry {
  sentence: string;
  title: string | null;
  excerpt: string | null;
  link: string | null;
}

function entryOf(item: MailItem, appUrl: string): Entry {
  return {
    sentence: sentenceOf(item),
    title: item.task_title && singleLine(item.task_title),
    excerpt: item.comment_body && excerptOf(item.comment_body),
    link: taskLinkOf(item, appUrl),
  };
}

function sentenceOf(item: MailItem): string {
  return notificationSentence({
    type: item.type,
    actorName: item.actor_name,
    taskKey: taskKeyOf(item),
    workspaceName: item.workspace_name,
    changeCount: item.change_count,
    ...(item.due_date ? { dueDay: `on ${formatDueDate(item.due_date)}` } : {}),
  });
}

/**
 * "Monday 30 November": a mail may be read on another day than it was sent (a digest the morning after),
 * so it names the day rather than saying "tomorrow".
 */
function formatDueDate(date: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

const taskKeyOf = (item: MailItem): string | null =>
  item.project_key && item.task_number !== null ? `${item.project_key}-${item.task_number}` : null;

/** The task in the web app (paths.task), at the comment when there is one. */
function taskLinkOf(item: MailItem, appUrl: string): string | null {
  if (!item.project_key || item.task_number === null) return null;
  const task = `${appUrl}/w/${encodeURIComponent(item.workspace_slug)}/p/${item.project_key}/t/${item.task_number}`;
  return item.comment_id ? `${task}#comment-${item.comment_id}` : task;
}

function excerptOf(body: string): string {
  const text = singleLine(body);
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

function linked(text: string, link: string | null): string {
  return link ? `<a href="${escapeHtml(link)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}
