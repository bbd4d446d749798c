import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads the whole body, or returns null once it grows past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    })
    .end(text);
}

export const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]{1,5})?$/i;

/**
 * Answers 421 Misdirected Request, and returns true, unless the request names a loopback host: the
 * stand-in listens on loopback only, so another name means a browser was pointed here by DNS rebinding,
 * and must not read what is served (reset links in the mailbox, sessions through the gateway).
 */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (LOOPBACK_HOST.test(req.headers.host ?? '')) return false;
  sendJson(res, 421, {
    message: 'This server answers only requests addressed to 127.0.0.1, localhost or [::1].',
  });
  return true;
}
