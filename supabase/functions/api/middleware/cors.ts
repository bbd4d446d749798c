/** CORS for the configured browser origins only. Preflights (OPTIONS) are answered here with 204. */
import { cors } from 'hono/cors';

const ALLOW_HEADERS = [
  'authorization',
  'x-client-info',
  'apikey',
  'content-type',
  'idempotency-key',
  'if-match',
  'if-none-match',
  // The change feed's cursor, for browsers (decision 0035).
  'feed-after',
  'x-request-id',
  // Regional invocation: run the function in the database's region (docs/deploy.md, step 7).
  'x-region',
];

const EXPOSE_HEADERS = [
  'X-Request-Id',
  'ETag',
  'Link',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'Content-Disposition',
];

export const corsFor = (allowedOrigins: readonly string[]) =>
  cors({
    origin: [...allowedOrigins],
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
