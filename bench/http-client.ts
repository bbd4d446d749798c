/**
 * A minimal HTTP/1.1 client for one request at a time over one kept-alive connection, lighter than
 * fetch, so that the client's own cost stays small next to what it measures. It reads each answer to
 * the end and refuses any status but the expected one: a benchmark of error answers measures nothing.
 */
import { Agent, request } from 'node:http';

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus?: number;
}

export interface HttpClient {
  call(call: HttpCall): Promise<string>;
  close(): void;
}

export function httpClient(origin: string): HttpClient {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    call: (call) =>
      new Promise((resolve, reject) => {
        const { method, path, headers = {}, body, expectStatus = 200 } = call;
        const outgoing = request(
          {
            agent,
            host: hostname,
            port,
            method,
            path,
            headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.once('error', reject);
            answer.once('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if (answer.statusCode === expectStatus) resolve(text);
              else reject(unexpected(call, answer.statusCode, text));
            });
          },
        );
        outgoing.once('error', reject);
        outgoing.end(body);
      }),
    close: () => agent.destroy(),
  };
}

function unexpected(call: HttpCall, status: number | undefined, body: string): Error {
  const expected = call.expectStatus ?? 200;
  return new Error(`${call.method} ${call.path} answered ${status}, not ${expected}: ${body.slice(0, 300)}`);
}
