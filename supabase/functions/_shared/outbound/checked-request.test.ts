import { describe, expect, it } from 'vitest';
import {
  fakeResolver,
  recordingConnector,
  scriptedConnection,
  type ServerScript,
} from '../../../../tests/support/fake-network.ts';
import { type OutboundDeps, type OutboundRequest, sendChecked } from './checked-request.ts';

// Only ever an answer of the fake resolver: the fake connector connects nowhere.
const PUBLIC = '93.184.216.34';
const OTHER_PUBLIC = '93.184.216.35';

const REQUEST: OutboundRequest = {
  url: 'https://hooks.example.com/tasklane?team=7&x=%20y',
  method: 'POST',
  headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000' },
  body: '{"title":"Café"}',
};

/** Sends `request` to a server playing `script`, through a fake network. */
async function sendTo(
  script: ServerScript,
  request: Partial<OutboundRequest> = {},
  deps: Partial<OutboundDeps> = {},
) {
  const connection = scriptedConnection(script);
  const connector = recordingConnector(() => connection);
  const { resolve } = fakeResolver({ 'hooks.example.com': [PUBLIC] });
  const result = await sendChecked(
    { ...REQUEST, ...request },
    {
      resolve,
      connect: connector.connect,
      allowLoopbackHttp: false,
      timeoutMs: 1000,
      maxResponseBytes: 1024,
      ...deps,
    },
  );
  return { result, connection, attempts: connector.attempts };
}

const answer = (head: string, body = '') => `HTTP/1.1 ${head}\r\n\r\n${body}`;

describe('sendChecked', () => {
  it('writes the request by hand to the checked address, with the host for TLS', async () => {
    const { result, connection, attempts } = await sendTo({
      sends: [answer('200 OK\r\nContent-Length: 2\r\nX-Request-Id: abc', 'ok')],
      then: 'close',
    });
    expect(attempts).toEqual([{ address: PUBLIC, port: 443, tls: { serverName: 'hooks.example.com' } }]);
    expect(connection.written()).toBe(
      [
        'POST /tasklane?team=7&x=%20y HTTP/1.1',
        'Host: hooks.example.com',
        'User-Agent: Tasklane-Webhooks/1',
        'Content-Type: application/json',
        'Content-Length: 17',
        'Connection: close',
        'webhook-id: msg_1',
        'webhook-timestamp: 1700000000',
        '',
        '{"title":"Café"}',
      ].join('\r\n'),
    );
    expect(result).toEqual({
      kind: 'response',
      status: 200,
      headers: { 'content-length': '2', 'x-request-id': 'abc' },
      body: 'ok',
      latencyMs: expect.any(Number),
    });
    expect(connection.closed).toBe(true);
  });

  it('names a port that is not the default in Host, and connects to it', async () => {
    const { connection, attempts } = await sendTo(
      { sends: [answer('204 No Content')], then: 'close' },
      { url: 'https://hooks.example.com:8443/' },
    );
    expect(attempts).toEqual([{ address: PUBLIC, port: 8443, tls: { serverName: 'hooks.example.com' } }]);
    expect(connection.written()).toContain('POST / HTTP/1.1\r\nHost: hooks.example.com:8443\r\n');
  });

  it('connects to an IPv6 literal without brackets, and writes Host with them', async () => {
    const { connection, attempts } = await sendTo(
      { sends: [answer('204 No Content')], then: 'close' },
      { url: 'https://[2606:2800:220:1::1]:8443/hook' },
    );
    expect(attempts).toEqual([
      { address: '2606:2800:220:1::1', port: 8443, tls: { serverName: '2606:2800:220:1::1' } },
    ]);
    expect(connection.written()).toContain('Host: [2606:2800:220:1::1]:8443\r\n');
  });

  it("lets the caller's Content-Type and User-Agent replace the defaults", async () => {
    const { connection } = await sendTo(
      { sends: [answer('204 No Content')], then: 'close' },
      { headers: { 'content-type': 'text/plain', 'User-Agent': 'Other/2' } },
    );
    const head = connection.written().split('\r\n\r\n')[0];
    expect(head?.split('\r\n').slice(2)).toEqual([
      'Content-Length: 17',
      'Connection: close',
      'content-type: text/plain',
      'User-Agent: Other/2',
    ]);
  });

  it('reads a chunked body, however its bytes arrive', async () => {
    const { result } = await sendTo({
      sends: [
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel',
        'lo\r\n6;name=value\r\n world\r\n0\r\n\r\n',
      ],
      then: 'hang',
    });
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'hello world' });
  });

  it('reads a body without length until the server closes', async () => {
    const { result } = await sendTo({ sends: ['HTTP/1.0 200 OK\r\n\r\nfirst ', 'second'], then: 'close' });
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'first second' });
  });

  it('reads no more than Content-Length, even when more follows', async () => {
    const { result } = await sendTo({
      sends: [answer('200 OK\r\nContent-Length: 5', 'helloEXTRA')],
      then: 'hang',
    });
    expect(result).toMatchObject({ kind: 'response', body: 'hello' });
  });

  it.each([
    ['Content-Length', answer('200 OK\r\nContent-Length: 10000000')],
    ['chunked', answer('200 OK\r\nTransfer-Encoding: chunked', '989680\r\n')],
    ['until close', answer('200 OK')],
  ])('keeps the first maxResponseBytes of a huge body (%s) and stops reading', async (_, head) => {
    const { result, connection } = await sendTo(
      { sends: [head], then: 'endless' },
      {},
      { maxResponseBytes: 1000 },
    );
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'a'.repeat(1000) });
    expect(connection.sentBytes).toBeLessThan(200_000);
    expect(connection.closed).toBe(true);
  });

  it('answers a redirect as it is, without following it', async () => {
    const { result, attempts } = await sendTo({
      sends: [answer('301 Moved Permanently\r\nLocation: http://127.0.0.1/admin\r\nContent-Length: 0')],
      then: 'close',
    });
    expect(result).toMatchObject({
      kind: 'response',
      status: 301,
      headers: { location: 'http://127.0.0.1/admin' },
    });
    expect(attempts).toHaveLength(1);
  });

  it('returns Retry-After with a 429', async () => {
    const { result } = await sendTo({
      sends: [answer('429 Too Many Requests\r\nRetry-After: 120\r\nContent-Length: 4', 'slow')],
      then: 'close',
    });
    expect(result).toMatchObject({
      kind: 'response',
      status: 429,
      headers: { 'retry-after': '120' },
      body: 'slow',
    });
  });

  it('skips an interim 100 Continue', async () => {
    const { result } = await sendTo({
      sends: ['HTTP/1.1 100 Continue\r\n\r\n', answer('202 Accepted\r\nContent-Length: 0')],
      then: 'close',
    });
    expect(result).toMatchObject({ kind: 'response', status: 202, body: '' });
  });

  it('replaces bytes that are not UTF-8, and keeps a body cut short by the server', async () => {
    const bytes = new Uint8Array([0x6f, 0x6b, 0xff]);
    const { result } = await sendTo({
      sends: [answer('200 OK\r\nContent-Length: 50'), bytes],
      then: 'close',
    });
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'ok\uFFFD' });
  });

  it('keeps what came of the body when the deadline ends its read', async () => {
    const { result, connection } = await sendTo(
      { sends: [answer('200 OK\r\nContent-Length: 100', 'abc')], then: 'hang' },
      {},
      { timeoutMs: 50 },
    );
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'abc' });
    expect(connection.closed).toBe(true);
  });

  it('calls headers longer than 64 KiB a bad response', async () => {
    const { result } = await sendTo({
      sends: [answer(`200 OK\r\nX-Big: ${'b'.repeat(40_000)}\r\nX-Bigger: ${'b'.repeat(40_000)}`)],
      then: 'close',
    });
    expect(result).toMatchObject({
      kind: 'failed',
      error: 'bad_response',
      message: "The answer's headers are too long.",
    });
  });

  it('gives up on a server that never answers', async () => {
    const { result, connection } = await sendTo({ sends: [], then: 'hang' }, {}, { timeoutMs: 50 });
    expect(result).toEqual({
      kind: 'failed',
      error: 'timeout',
      message: expect.any(String),
      latencyMs: expect.any(Number),
    });
    expect(connection.closed).toBe(true);
  });

  it('gives up on a resolver that never answers, connecting nowhere', async () => {
    const connector = recordingConnector();
    const result = await sendChecked(REQUEST, {
      resolve: () => new Promise<string[]>(() => undefined),
      connect: connector.connect,
      allowLoopbackHttp: false,
      timeoutMs: 50,
      maxResponseBytes: 1024,
    });
    expect(result).toMatchObject({ kind: 'failed', error: 'timeout' });
    expect(connector.attempts).toEqual([]);
  });

  it('tries each checked address in turn, and fails when none connects', async () => {
    const connector = recordingConnector();
    const { resolve } = fakeResolver({ 'hooks.example.com': [PUBLIC, OTHER_PUBLIC] });
    const result = await sendChecked(REQUEST, {
      resolve,
      connect: connector.connect,
      allowLoopbackHttp: false,
      timeoutMs: 1000,
      maxResponseBytes: 1024,
    });
    expect(result).toMatchObject({ kind: 'failed', error: 'connection_failed' });
    expect(connector.attempts.map((target) => target.address)).toEqual([PUBLIC, OTHER_PUBLIC]);
  });

  it('uses the next checked address when the first refuses', async () => {
    const connection = scriptedConnection({ sends: [answer('204 No Content')], then: 'close' });
    const connector = recordingConnector((target) => {
      if (target.address === PUBLIC) throw new Error('ECONNREFUSED');
      return connection;
    });
    const { resolve } = fakeResolver({ 'hooks.example.com': [PUBLIC, OTHER_PUBLIC] });
    const result = await sendChecked(REQUEST, {
      resolve,
      connect: connector.connect,
      allowLoopbackHttp: false,
      timeoutMs: 1000,
      maxResponseBytes: 1024,
    });
    expect(result).toMatchObject({ kind: 'response', status: 204 });
    expect(connector.attempts.map((target) => target.address)).toEqual([PUBLIC, OTHER_PUBLIC]);
  });

  it.each([
    ['a malformed status line', ['SSH-2.0-OpenSSH_9.6\r\n\r\n']],
    ['HTTP/2 text', ['HTTP/2 200\r\n\r\n']],
    ['a malformed header', ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n']],
    ['a folded header', ['HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n']],
    ['an empty answer', []],
    ['headers cut short', ['HTTP/1.1 200 OK\r\nX-A: 1\r\n']],
    ['a bad Content-Length', [answer('200 OK\r\nContent-Length: 12, 13')]],
    ['a bad chunk size', [answer('200 OK\r\nTransfer-Encoding: chunked', 'zz\r\n')]],
  ])('calls %s a bad response', async (_, sends) => {
    const { result, connection } = await sendTo({ sends, then: 'close' });
    expect(result).toMatchObject({ kind: 'failed', error: 'bad_response' });
    expect(connection.closed).toBe(true);
  });

  it.each([
    [{ 'x-evil': 'a\r\nHost: 127.0.0.1' }, 'has a line break in the value of header x-evil'],
    [{ 'x-evil': 'a\nb' }, 'has a line break in the value of header x-evil'],
    [{ 'bad name': 'x' }, 'has a header name that is not valid ("bad name")'],
    [{ Host: 'other.example.com' }, 'must not set header Host'],
    [{ 'transfer-encoding': 'chunked' }, 'must not set header transfer-encoding'],
  ])('refuses headers %j before connecting', async (headers, reason) => {
    const { result, attempts } = await sendTo({ sends: [], then: 'close' }, { headers });
    expect(result).toEqual({ kind: 'refused', reason });
    expect(attempts).toEqual([]);
  });
});
