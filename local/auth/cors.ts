import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'authorization, x-client-info, apikey, content-type, x-retry-count, traceparent, tracestate, baggage, x-supabase-api-version';
const PREFLIGHT_MAX_AGE_SECONDS = '3600';

/** CORS headers on every auth response; the browser client must read X-Supabase-Api-Version on errors. */
export function addCorsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'X-Total-Count, Link, X-Supabase-Api-Version');
}

/** Answers a preflight at the gateway, as Kong's cors plugin does for /auth/v1. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res
    .writeHead(204, {
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    })
    .end();
}
