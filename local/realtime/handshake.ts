import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer } from 'ws';
import { jwtForApiKey } from '../auth/api-keys.ts';
import { openConnection } from './connection.ts';
import type { RealtimeContext } from './context.ts';
import { refuseUpgrade } from './raw-http.ts';
import { policyHeaders } from './request-headers.ts';
import { VSNS, type Vsn } from './wire.ts';

/** Phoenix's max frame size on Realtime's endpoint. */
const MAX_FRAME_BYTES = 5 * 1024 * 1024;

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, path: string) => void;

/**
 * `GET /realtime/v1/websocket?apikey=…&vsn=…` (docs/supabase-protocols.md#connecting): the key (query
 * `apikey` or header `x-api-key`, opaque keys standing for their JWTs) must be a valid JWT with `role` and
 * `exp`. A refused token is answered after the connect error backoff, as hosted does. Origin is not looked
 * at, as hosted does not (decision 0050): tokens authorize, not the page a socket comes from.
 */
export function websocketEndpoint(context: RealtimeContext): { upgrade: UpgradeHandler; close(): void } {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const upgrade: UpgradeHandler = (req, socket, head, path) => {
    socket.on('error', () => socket.destroy());
    void handshake(context, server, { req, socket, head, url: new URL(path, 'http://realtime.local') });
  };
  return {
    upgrade,
    close: () => {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

interface UpgradeRequest {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  url: URL;
}

async function handshake(context: RealtimeContext, server: WebSocketServer, request: UpgradeRequest) {
  const { req, socket, head, url } = request;
  if (url.pathname !== '/websocket') return refuseUpgrade(socket, 404, { error: 'Not Found' });
  const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn;
  if (!VSNS.includes(vsn)) return refuseUpgrade(socket, 400, { error: `Unsupported vsn: ${vsn}` });
  const key = headerValue(req.headers['x-api-key']) ?? url.searchParams.get('apikey');
  const refusal = key ? await refusalOf(context, jwtForApiKey(key, context.keys)) : 'API key is missing';
  if (refusal) {
    await sleep(context.settings.connectErrorBackoffMs);
    return refuseUpgrade(socket, 401, { error: refusal });
  }
  server.handleUpgrade(req, socket, head, (ws) =>
    openConnection(context, ws, {
      vsn,
      socketToken: jwtForApiKey(key ?? '', context.keys),
      headers: policyHeaders(req),
    }),
  );
}

async function refusalOf(context: RealtimeContext, token: string): Promise<string | null> {
  const check = await context.verifyToken(token);
  return check.ok ? null : check.refusal.handshakeError;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
