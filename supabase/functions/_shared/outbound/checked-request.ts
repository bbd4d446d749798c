/**
 * Sends one POST to a webhook URL that cannot be turned against private networks: the URL is checked again
 * and its host resolved again at send time, every address is checked, and the connection goes to a checked
 * address (never to the name), so a DNS answer that changed since the webhook was saved cannot slip
 * through. Redirects are answers like any other, never followed. One deadline bounds resolving,
 * connecting, writing and reading; only the first `maxResponseBytes` of the body are read.
 */
import { ByteReader } from './byte-reader.ts';
import type { ConnectTarget, Connection, Connector } from './connector.ts';
import { type Deadline, deadlineIn, TimeoutError } from './deadline.ts';
import { type Resolver, resolveDestination } from './destination.ts';
import { BadResponseError, ConnectionFailedError } from './outbound-errors.ts';
import { headersProblem, requestBytes } from './request-bytes.ts';
import { BodyPrefix, readResponseBody } from './response-body.ts';
import { readResponseHead } from './response-head.ts';
import { parseWebhookUrl } from './webhook-url.ts';

export const OUTBOUND_TIMEOUT_MS = 10_000;

export interface OutboundRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

export interface OutboundDeps {
  resolve: Resolver;
  connect: Connector;
  allowLoopbackHttp: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

export type OutboundFailure = 'timeout' | 'connection_failed' | 'bad_response';

/** `latencyMs` runs from resolving the host to the end of the answer, or to the failure. */
export type OutboundResult =
  | {
      kind: 'response';
      status: number;
      /** Lower-case names. */
      headers: Record<string, string>;
      /** The first maxResponseBytes, decoded as UTF-8 with replacement characters. */
      body: string;
      latencyMs: number;
    }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; error: OutboundFailure; message: string; latencyMs: number };

export async function sendChecked(request: OutboundRequest, deps: OutboundDeps): Promise<OutboundResult> {
  const parsed = parseWebhookUrl(request.url, deps);
  if (!parsed.ok) return { kind: 'refused', reason: parsed.reason };
  const problem = headersProblem(request.headers);
  if (problem !== null) return { kind: 'refused', reason: problem };
  const started = performance.now();
  const deadline = deadlineIn(deps.timeoutMs);
  try {
    const destination = await deadline.race(resolveDestination(parsed.url, deps));
    if (!destination.ok) return { kind: 'refused', reason: destination.reason };
    const connection = await connectToFirst(
      targetsFor(parsed.url, destination.addresses),
      deps.connect,
      deadline,
    );
    try {
      return await exchange(
        connection,
        requestBytes(parsed.url, request.headers, request.body),
        deps,
        deadline,
        started,
      );
    } finally {
      connection.close();
    }
  } catch (error) {
    return failure(error, started);
  } finally {
    deadline.cancel();
  }
}

function targetsFor(url: URL, addresses: readonly string[]): ConnectTarget[] {
  const https = url.protocol === 'https:';
  const port = url.port === '' ? (https ? 443 : 80) : Number(url.port);
  const serverName = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return addresses.map((address) => ({ address, port, tls: https ? { serverName } : null }));
}

/** The first target that accepts; the next is tried when one refuses, until the deadline. */
async function connectToFirst(
  targets: ConnectTarget[],
  connect: Connector,
  deadline: Deadline,
): Promise<Connection> {
  let lastError: unknown;
  for (const target of targets) {
    const attempt = Promise.resolve().then(() => connect(target));
    try {
      return await deadline.race(attempt);
    } catch (error) {
      if (error instanceof TimeoutError) {
        // A connection that opens after the deadline is closed, not leaked.
        attempt.then(
          (late) => late.close(),
          () => undefined,
        );
        throw error;
      }
      lastError = error;
    }
  }
  throw new ConnectionFailedError(`Could not connect: ${messageOf(lastError)}`);
}

async function exchange(
  connection: Connection,
  bytes: Uint8Array,
  deps: OutboundDeps,
  deadline: Deadline,
  started: number,
): Promise<OutboundResult> {
  await deadline.race(write(connection.writable, bytes));
  const reader = new ByteReader(connection.readable.getReader(), deadline);
  const head = await readResponseHead(reader);
  const body = new BodyPrefix(deps.maxResponseBytes);
  try {
    await readResponseBody(reader, head, body);
  } catch (error) {
    // The status is what a delivery is judged by: a body cut short by the deadline keeps its prefix.
    if (!(error instanceof TimeoutError)) throw error;
  }
  return { kind: 'response', ...head, body: body.text(), latencyMs: elapsed(started) };
}

async function write(writable: WritableStream<Uint8Array>, bytes: Uint8Array): Promise<void> {
  const writer = writable.getWriter();
  try {
    await writer.write(bytes);
  } finally {
    writer.releaseLock();
  }
}

function failure(error: unknown, started: number): OutboundResult {
  return { kind: 'failed', error: failureOf(error), message: messageOf(error), latencyMs: elapsed(started) };
}

function failureOf(error: unknown): OutboundFailure {
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof BadResponseError) return 'bad_response';
  return 'connection_failed';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
