/**
 * The receiver the webhook rows deliver to: an HTTP server on loopback that verifies each delivery with
 * the `standardwebhooks` package (each webhook has its own path and secret) and notes when it arrived.
 * A delivery whose signature does not check out is answered 400 and not counted.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';

/** A delivery not here by then is a failure of the row, not a slow sample. */
export const ARRIVAL_TIMEOUT_MS = 30_000;

export interface WebhookReceiver {
  /** The address of the webhook at `path` (e.g. `/a`), whose deliveries are verified with its secret. */
  urlOf(path: string): string;
  /** Tells the receiver the secret of the webhook at `path`, once the webhook exists. */
  trust(path: string, secret: string): void;
  /** Resolves with when the delivery to `path` about `taskId` arrived, verified. */
  arrivalOf(path: string, taskId: string, timeoutMs?: number): Promise<number>;
  /** Every verified arrival so far, in milliseconds of `performance.now()`. */
  arrivals(): number[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const waiting = new Map<string, (at: number) => void>();
  const arrived = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const path = request.url ?? '';
      const secret = secrets.get(path);
      const body = Buffer.concat(chunks).toString('utf8');
      const taskId = secret === undefined ? null : verifiedTaskId(secret, request.headers, body);
      response.writeHead(taskId ? 204 : 400).end();
      if (!taskId) return;
      const key = keyOf(path, taskId);
      arrived.set(key, at);
      waiting.get(key)?.(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlOf: (path) => `${origin}${path}`,
    trust: (path, secret) => void secrets.set(path, secret),
    arrivalOf: (path, taskId, timeoutMs = ARRIVAL_TIMEOUT_MS) =>
      new Promise((resolve, reject) => {
        const key = keyOf(path, taskId);
        const already = arrived.get(key);
        if (already !== undefined) return resolve(already);
        const timer = setTimeout(() => reject(new Error(`no delivery to ${path} for ${taskId}`)), timeoutMs);
        waiting.set(key, (at) => {
          clearTimeout(timer);
          waiting.delete(key);
          resolve(at);
        });
      }),
    arrivals: () => [...arrived.values()],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function keyOf(path: string, taskId: string): string {
  return `${path} ${taskId}`;
}

/** The task the delivery is about, once its signature checks out; null otherwise. */
function verifiedTaskId(secret: string, headers: IncomingHttpHeaders, body: string): string | null {
  try {
    const payload = new StandardWebhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    }) as { data?: { task_id?: string } };
    return payload.data?.task_id ?? null;
  } catch {
    return null;
  }
}
