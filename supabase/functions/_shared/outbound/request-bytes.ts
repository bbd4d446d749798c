/**
 * The HTTP/1.1 request a checked request writes, byte for byte. Written by hand because the connection
 * goes to a checked address, which no fetch offers; and the caller's headers are checked so that none
 * splits the request or contradicts the framing written here.
 */

export const USER_AGENT = 'Tasklane-Webhooks/1';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const LINE_BREAK_OR_NUL = /[\r\n\0]/;
// Written here from the URL and the body; a caller's value would contradict them.
const FRAMING_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection'];

/** Why `headers` cannot be sent, or null when they can. */
export function headersProblem(headers: Record<string, string>): string | null {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return `has a header name that is not valid (${JSON.stringify(name)})`;
    if (LINE_BREAK_OR_NUL.test(value)) return `has a line break in the value of header ${name}`;
    if (FRAMING_HEADERS.includes(name.toLowerCase())) return `must not set header ${name}`;
  }
  return null;
}

export function requestBytes(url: URL, headers: Record<string, string>, body: string): Uint8Array {
  const content = new TextEncoder().encode(body);
  const lines = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...headerLines(headers, content.length),
  ];
  const head = new TextEncoder().encode(`${lines.join('\r\n')}\r\n\r\n`);
  const bytes = new Uint8Array(head.length + content.length);
  bytes.set(head);
  bytes.set(content, head.length);
  return bytes;
}

function headerLines(headers: Record<string, string>, contentLength: number): string[] {
  const given = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const defaults: [string, string][] = [
    ['User-Agent', USER_AGENT],
    ['Content-Type', 'application/json'],
  ];
  return [
    ...defaults
      .filter(([name]) => !given.has(name.toLowerCase()))
      .map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${contentLength}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
}
