/**
 * One exchange over a real socket: a Node HTTP server on 127.0.0.1, reached with loopback http allowed as
 * the local stand-in does, through a connector built on node:net in place of Deno's.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeResolver, loopbackConnector } from '../../../../tests/support/fake-network.ts';
import { sendChecked } from './checked-request.ts';
import type { ConnectTarget, Connector } from './connector.ts';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const attempts: ConnectTarget[] = [];
let server: Server;
let port: number;

/** Plain TCP only: this test never asks for TLS. */
const nodeConnector: Connector = (target) => {
  attempts.push(target);
  return loopbackConnector(target);
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(202, { 'X-Seen': 'yes' });
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('sendChecked over loopback', () => {
  it('delivers the body and reads the answer', async () => {
    const { resolve, asked } = fakeResolver({});
    const body = JSON.stringify({ type: 'task.created', title: 'Café ☕' });
    const result = await sendChecked(
      {
        url: `http://127.0.0.1:${port}/hooks/in?x=1`,
        method: 'POST',
        headers: { 'webhook-id': 'msg_1' },
        body,
      },
      { resolve, connect: nodeConnector, allowLoopbackHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 },
    );

    expect(result).toMatchObject({
      kind: 'response',
      status: 202,
      body: 'thanks',
      headers: { 'x-seen': 'yes' },
    });
    expect(received).toEqual([
      {
        method: 'POST',
        url: '/hooks/in?x=1',
        headers: expect.objectContaining({
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Tasklane-Webhooks/1',
          'webhook-id': 'msg_1',
        }),
        body,
      },
    ]);
    expect(attempts).toEqual([{ address: '127.0.0.1', port, tls: null }]);
    expect(asked).toEqual([]);
  });
});
