import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FunctionWorkers } from '../functions/function-workers.ts';
import { readBody, sendJson } from './http.ts';

const MAX_BODY_BYTES = 20 * 1024 * 1024;
/** How long a request waits for a function that is (re)starting, e.g. after a source edit. */
const BOOT_WAIT_MS = 15_000;
const IDLE_TIMEOUT_MS = 150_000;

/**
 * Serves /functions/v1/<name>/… as the Supabase gateway does: the function receives the request with
 * its method and headers, at a path that starts with /<name>, and answers everything itself (OPTIONS too).
 */
export async function proxyToFunction(
  workers: FunctionWorkers,
  req: IncomingMessage,
  res: ServerResponse,
  pathAfterPrefix: string,
): Promise<void> {
  const name = pathAfterPrefix.split(/[/?]/, 2)[1] ?? '';
  const port = workers.portOf(name);
  if (port === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Function not found');
    return;
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (body === null) {
    sendJson(res, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' });
    return;
  }
  await forward({ port, req, res, path: pathAfterPrefix, body, deadline: Date.now() + BOOT_WAIT_MS });
}

interface Forwarding {
  port: number;
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  body: Buffer;
  deadline: number;
}

async function forward(forwarding: Forwarding): Promise<void> {
  for (;;) {
    const outcome = await attempt(forwarding);
    if (outcome === 'done') return;
    if (Date.now() > forwarding.deadline) {
      sendJson(forwarding.res, 503, {
        code: 'BOOT_ERROR',
        message: 'Worker failed to boot (please check logs)',
      });
      return;
    }
    await sleep(100);
  }
}

/** One try: 'retry' when the worker is not listening (yet); otherwise the answer is streamed back. */
function attempt({ port, req, res, path, body }: Forwarding): Promise<'done' | 'retry'> {
  return new Promise((resolve) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path,
        headers: { ...req.headers, host: `127.0.0.1:${port}`, 'content-length': String(body.length) },
        timeout: IDLE_TIMEOUT_MS,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        answer.once('end', () => resolve('done'));
        answer.once('error', () => {
          res.destroy();
          resolve('done');
        });
      },
    );
    upstream.once('timeout', () => {
      upstream.destroy();
      if (!res.headersSent) sendJson(res, 504, { code: 'TIMEOUT', message: 'Function timed out' });
      resolve('done');
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !res.headersSent) return resolve('retry');
      // The worker closed an idle kept-alive connection just as this request took it, so the request did not
      // get to the worker: it is sent again on a fresh connection (the remedy Node's http docs give).
      if (error.code === 'ECONNRESET' && upstream.reusedSocket && !res.headersSent) return resolve('retry');
      if (!res.headersSent) sendJson(res, 502, { code: 'WORKER_ERROR', message: 'Function failed' });
      else res.destroy();
      resolve('done');
    });
    upstream.end(body);
  });
}
