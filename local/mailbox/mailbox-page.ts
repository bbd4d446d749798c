import { escapeHtml } from '../../supabase/functions/_shared/mail/escape-html.ts';
import type { MailboxMessage } from './mailbox.ts';

const LINK = /(https?:\/\/[^\s<>"']+)/;

/** The mailbox's web page: every message, newest first, with its links clickable. Everything is escaped. */
export function renderMailboxPage(messages: MailboxMessage[]): string {
  const list =
    messages.length === 0
      ? '<p class="empty">No messages yet. E-mails the stand-in sends (sign-up confirmations, password recovery) appear here.</p>'
      : messages.map(renderMessage).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox · Tasklane stand-in</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Mailbox</h1><p>${messages.length} message(s) · <a href="/">refresh</a> · <a href="/api/messages">JSON</a></p></header>
<main>
${list}
</main>
</body>
</html>
`;
}

function renderMessage(message: MailboxMessage): string {
  return `<article>
<h2>${escapeHtml(message.subject)}</h2>
<dl><dt>To</dt><dd>${escapeHtml(message.to)}</dd><dt>Sent</dt><dd><time datetime="${escapeHtml(message.created_at)}">${escapeHtml(message.created_at)}</time></dd>${renderHeaders(message.headers)}</dl>
<pre>${linkify(message.text)}</pre>
</article>`;
}

/** The extra headers a sender set (List-Unsubscribe and its like), their addresses clickable. */
function renderHeaders(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${linkify(value)}</dd>`)
    .join('');
}

/** Escapes the text and turns its http(s) addresses, and only those, into links. */
function linkify(text: string): string {
  return text
    .split(LINK)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem; }
header p, .empty, dl { color: GrayText; }
article { border: 1px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: .5rem; padding: 0 1rem; margin: 1rem 0; }
h2 { font-size: 1.1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0; }
dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }
`;
