import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Answers an upgrade request that is refused with a plain HTTP response and JSON body, then hangs up. */
export function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  if (socket.destroyed) return;
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}
