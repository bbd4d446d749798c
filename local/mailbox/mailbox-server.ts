import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendJson } from '../gateway/http.ts';
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

/** The mailbox on :54324: `GET /` a page to read, `GET /api/messages[?to=]` and `DELETE /api/messages`. */
export async function startMailboxServer(options: MailboxServerOptions): Promise<Server> {
  const server = createServer((req, res) => answer(options.mailbox, req, res));
  server.listen({ host: options.host, port: options.port, exclusive: true });
  await once(server, 'listening');
  return server;
}

function answer(mailbox: Mailbox, req: IncomingMessage, res: ServerResponse): void {
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
  return pathname === '/' ? 'GET' : 'GET, DELETE';
}
