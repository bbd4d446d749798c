import type { IncomingMessage } from 'node:http';

/**
 * The handshake's Origin check: a browser page may open the socket only from an allowed web origin; a
 * request without Origin (Node, the CLI, tests) is not a browser's and passes.
 */
export function originAllowed(req: IncomingMessage, allowedOrigins: string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return allowedOrigins.includes(origin.toLowerCase());
}

/** The origins of the configured web addresses (site URL and redirect URLs), as Origin headers name them. */
export function originsOf(urls: string[]): string[] {
  return [...new Set(urls.flatMap((url) => (URL.canParse(url) ? [new URL(url).origin.toLowerCase()] : [])))];
}
