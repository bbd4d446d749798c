import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import type { FunctionWorkers } from '../functions/function-workers.ts';
import { proxyToFunction } from './functions-proxy.ts';
import { LOOPBACK_HOST, refuseForeignHost, sendJson } from './http.ts';

/** A service mounted under a prefix of the gateway (auth, storage, realtime arrive as later features). */
export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

/** A WebSocket endpoint mounted under a prefix (realtime's /websocket). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, path: string) => void;

export interface GatewayOptions {
  host: string;
  port: number;
  functions: FunctionWorkers;
  services?: Record<string, ServiceHandler>;
  upgrades?: Record<string, UpgradeHandler>;
  onError: (error: unknown) => void;
}

const FUNCTIONS_PREFIX = '/functions/v1';

/** The one HTTP entry point on :54321, laid out as Supabase's: /auth/v1, /storage/v1, /functions/v1, … */
export async function startGateway(options: GatewayOptions): Promise<Server> {
  const server = createServer((req, res) => {
    if (refuseForeignHost(req, res)) return;
    req.headers['x-forwarded-for'] = forwardedFor(req);
    route(options, req, res).catch((error: unknown) => {
      options.onError(error);
      if (!res.headersSent) sendJson(res, 500, { message: 'An unexpected error occurred' });
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!LOOPBACK_HOST.test(req.headers.host ?? '')) return void socket.destroy();
    const path = req.url ?? '/';
    const prefix = Object.keys(options.upgrades ?? {}).find((p) => path.startsWith(`${p}/`));
    if (prefix) options.upgrades?.[prefix]?.(req, socket, head, path.slice(prefix.length));
    else socket.destroy();
  });
  server.listen({ host: options.host, port: options.port, exclusive: true });
  await once(server, 'listening');
  return server;
}

/**
 * X-Forwarded-For as Supabase's gateway passes it on: what the client sent, then the address the
 * gateway saw. Services behind it may trust only that last entry; the ones before are the client's words.
 */
function forwardedFor(req: IncomingMessage): string {
  const header = req.headers['x-forwarded-for'];
  const sent = (Array.isArray(header) ? header.join(', ') : header)?.trim();
  const seen = req.socket.remoteAddress ?? 'unknown';
  return sent ? `${sent}, ${seen}` : seen;
}

async function route(options: GatewayOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = req.url ?? '/';
  if (path === FUNCTIONS_PREFIX || path.startsWith(`${FUNCTIONS_PREFIX}/`)) {
    return proxyToFunction(options.functions, req, res, path.slice(FUNCTIONS_PREFIX.length));
  }
  for (const [prefix, handler] of Object.entries(options.services ?? {})) {
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)) {
      return handler(req, res, path.slice(prefix.length) || '/');
    }
  }
  sendJson(res, 404, { message: 'no Route matched with those values' });
}
