import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

function request(forwardedFor: string | undefined): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { headers, socket: { remoteAddress: '127.0.0.1' } as Socket } as IncomingMessage;
}

describe('clientAddress', () => {
  it('takes the first X-Forwarded-For entry', () => {
    expect(clientAddress(request('203.0.113.7, 10.0.0.1'))).toBe('203.0.113.7');
    expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8::1');
  });

  it('falls back to the socket address without the header or when it is not an IP address', () => {
    expect(clientAddress(request(undefined))).toBe('127.0.0.1');
    expect(clientAddress(request('not-an-ip, 10.0.0.1'))).toBe('127.0.0.1');
    expect(clientAddress(request(''))).toBe('127.0.0.1');
  });
});
