/**
 * A Supabase project's JWKS for tests of the API's remote signing keys: an HTTP server that answers
 * /auth/v1/.well-known/jwks.json with `keys`, and records every path it is asked for.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { afterAll, beforeAll } from 'vitest';

export interface JwksServer {
  /** The project's URL (SUPABASE_URL). */
  readonly url: string;
  /** Every path asked for, oldest first; a test may empty it. */
  readonly requestedPaths: string[];
  /** What the JWKS holds; a test may replace it. */
  keys: JWK[];
}

/** Listens before the tests of the calling file or `describe`, and closes after them. */
export function useJwksServer(keys: JWK[] = []): JwksServer {
  let server: Server | undefined;
  let url: string | undefined;
  const jwks = {
    get url() {
      if (!url) throw new Error('useJwksServer(): the server listens only inside tests');
      return url;
    },
    requestedPaths: [] as string[],
    keys,
  };
  beforeAll(async () => {
    const listening = createServer((req, res) => {
      jwks.requestedPaths.push(req.url ?? '');
      if (req.url !== '/auth/v1/.well-known/jwks.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: jwks.keys }));
    });
    server = listening;
    listening.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return jwks;
}
