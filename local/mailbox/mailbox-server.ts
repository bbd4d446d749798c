import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { readBody, refuseForeignHost, sendJson } from '../gateway/http.ts';
import type { Mailbox } from './mailbox.ts';
import { renderMailboxPage } from './mailbox-page.ts';

export interface MailboxServerOptions {
  host: string;
  port: number;
  mailbox: Mailbox;
}

// The page has no scripts and loads nothing; its only style is inline.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** What `POST /api/messages` takes: an e-mail as Resend's `POST /emails` does, which the API's mailer sends. */
const RelayedMail = z.object({
  from: z.string().optional(),
  to: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const MAX_RELAYED_BYTES = 1024 * 1024;

/**
 * The mailbox on :54324: `GET /` a page to read, `GET /api/messages[?to=]`, `DELETE /api/messages`, and
 * `POST /api/messages`, the relay the API function sends its mail to (MAIL_API_URL), as it would to Resend.
 */
export async function startMailboxServer(options: MailboxServerOptions): Promise<Server> {
  const server = createServer((req, res) => answer(options.mailbox, req, res));
  server.listen({ host: options.host, port: options.port, exclusive: true });
  await once(server, 'listening');
  return server;
}

function answer(mailbox: Mailbox, req: IncomingMessage, res: ServerResponse): void {
  if (refuseForeignHost(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://mailbox.local');
  const route = `${req.method} ${url.pathname}`;
  switch (route) {
    case 'GET /':
      res.writeHead(200, PAGE_HEADERS).end(renderMailboxPage(mailbox.messages()));
      return;
    case 'GET /api/messages': {
      const to = url.searchParams.get('to') ?? undefined;
      sendJson(res, 200, { messages: mailbox.messages({ to }) }, { 'cache-control': 'no-store' });
      return;
    }
    case 'POST /api/messages':
      relay(mailbox, req, res).catch((error: unknown) =>
        sendJson(res, 500, { message: error instanceof Error ? error.message : String(error) }),
      );
      return;
    case 'DELETE /api/messages':
      mailbox.clear();
      res.writeHead(204).end();
      return;
    default:
      if (url.pathname === '/' || url.pathname === '/api/messages') {
        sendJson(res, 405, { message: 'Method not allowed' }, { allow: allowedMethods(url.pathname) });
      } else {
        sendJson(res, 404, { message: 'Not found' });
      }
  }
}

function allowedMethods(pathname: string): string {
  return pathname === '/' ? 'GET' : 'GET, POST, DELETE';
}

/** Delivers the posted mail to each recipient, as the auth service's mails are; answers `{ id }` as Resend does. */
async function relay(mailbox: Mailbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, MAX_RELAYED_BYTES);
  if (body === null) return sendJson(res, 413, { message: 'The mail is larger than 1 MiB.' });
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return sendJson(res, 400, { message: 'The body is not valid JSON.' });
  }
  const mail = RelayedMail.safeParse(json);
  if (!mail.success) {
    const fields = [...new Set(mail.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    return sendJson(res, 422, { message: `Invalid mail: ${fields}.` });
  }
  const { to, subject, text, html, headers } = mail.data;
  const delivered = (Array.isArray(to) ? to : [to]).map((recipient) =>
    mailbox.deliver({
      to: recipient,
      subject,
      text,
      ...(html === undefined ? {} : { html }),
      ...(headers === undefined ? {} : { headers }),
    }),
  );
  sendJson(res, 200, { id: delivered[0]?.id });
}
