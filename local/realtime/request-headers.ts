import type { IncomingMessage } from 'node:http';

const CREDENTIALS = new Set(['authorization', 'apikey', 'x-api-key', 'cookie']);

/** The request's headers for `request.headers` in policies, without credentials. */
export function policyHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CREDENTIALS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
