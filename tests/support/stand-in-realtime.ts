import { once } from 'node:events';
import {
  createClient,
  type RealtimeChannel,
  type RealtimeClientOptions,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import ws from 'ws';
import { readKeys } from '../../local/keys.ts';
import { ensureLiveSession } from './live-session.ts';
import { withStandInDatabase } from './stand-in-auth.ts';
import type { StandInProcess } from './stand-in-process.ts';

/** Short backoffs so that refused joins and handshakes answer quickly; used by every realtime test file. */
export const FAST_REALTIME: NodeJS.ProcessEnv = {
  TASKLANE_REALTIME_JOIN_ERROR_BACKOFF_MS: '50',
  TASKLANE_REALTIME_CONNECT_ERROR_BACKOFF_MS: '50',
};

/**
 * supabase-js with `ws` for Node 20, quick reconnects, and no session storage; with `accessToken`, Realtime
 * authenticates with whatever it returns (supabase-js's third-party-auth option), re-read on `setAuth()`.
 */
export function realtimeClient(
  apiUrl: string,
  key: string,
  realtime: Partial<RealtimeClientOptions> = {},
  accessToken?: () => Promise<string>,
): SupabaseClient {
  return createClient(apiUrl, key, {
    ...(accessToken ? { accessToken } : {}),
    realtime: {
      transport: ws as unknown as RealtimeClientOptions['transport'],
      reconnectAfterMs: () => 100,
      timeout: 3_000,
      ...realtime,
    },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** Subscribes and resolves with the status the client settles on: SUBSCRIBED, or the error of CHANNEL_ERROR. */
export function subscribe(channel: RealtimeChannel): Promise<{ status: string; error?: Error }> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve({ status });
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT' || status === 'CLOSED') {
        resolve({ status, ...(error ? { error } : {}) });
      }
    });
  });
}

/** Subscribes and fails the test unless the channel is SUBSCRIBED. */
export async function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  const result = await subscribe(channel);
  if (result.status !== 'SUBSCRIBED') {
    throw new Error(`channel ${channel.topic}: ${result.status} ${result.error?.message ?? ''}`);
  }
  return channel;
}

/** The first `count` broadcasts of `event` on the channel (registered before subscribing). */
export function collect<T = unknown>(channel: RealtimeChannel, event: string): T[] {
  const received: T[] = [];
  channel.on('broadcast', { event }, (message) => received.push(message as T));
  return received;
}

/** Resolves when `check()` holds, polling; rejects after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh user signed up through the stand-in's Auth, with their session. */
export async function signedUpUser(
  standIn: StandInProcess,
  anonKey: string,
  email: string,
): Promise<{ client: SupabaseClient; session: Session }> {
  const client = realtimeClient(standIn.apiUrl, anonKey);
  const { data, error } = await client.auth.signUp({ email, password: 'correct horse battery' });
  if (error || !data.session) throw new Error(`signUp failed: ${error?.message ?? 'no session'}`);
  return { client, session: data.session };
}

/**
 * A user of the stand-in with a live session (id = the user's own, tests/support/live-session.ts), for
 * tokens signed by the test itself: RLS admits no caller without one (decision 0032). Answers the claims
 * such a token carries.
 */
export async function liveUser(standIn: StandInProcess, id: string): Promise<JWTPayload> {
  await withStandInDatabase(standIn, async (db) => {
    await db.query(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', now(), now()) on conflict (id) do nothing`,
      [id, `${id}@realtime.test`],
    );
    await ensureLiveSession(db, id);
  });
  return { sub: id, role: 'authenticated', session_id: id };
}

/** A token signed with the stand-in's keys: ES256 like a user's access token, or HS256 like an API key. */
export async function signedToken(
  standIn: StandInProcess,
  claims: JWTPayload,
  algorithm: 'ES256' | 'HS256' = 'ES256',
): Promise<string> {
  const keys = await readKeys(standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys yet');
  if (algorithm === 'HS256') {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(keys.jwtSecret));
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: keys.signingKey.kid })
    .sign(await importJWK(keys.signingKey, 'ES256'));
}

export type Frame = [string | null, string | null, string, string, unknown];

/** A bare `ws` client speaking vsn 2.0.0 text frames, for what supabase-js cannot be made to send. */
export interface RawSocket {
  socket: ws;
  send(frame: Frame): void;
  sendBinary(bytes: Buffer): void;
  /** Resolves with the next frame (received from now or already buffered) that matches. */
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  frames: Frame[];
  binaryFrames: Buffer[];
  close(): Promise<void>;
}

export async function rawSocket(
  standIn: StandInProcess,
  key: string,
  options: { vsn?: string; origin?: string } = {},
): Promise<RawSocket> {
  const url = `${standIn.apiUrl.replace('http', 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(key)}&vsn=${options.vsn ?? '2.0.0'}`;
  const socket = new ws(url, options.origin ? { origin: options.origin } : {});
  const frames: Frame[] = [];
  const binaryFrames: Buffer[] = [];
  const taken = new Set<number>();
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) binaryFrames.push(data);
    else frames.push(JSON.parse(data.toString('utf8')) as Frame);
  });
  await once(socket, 'open');
  return {
    socket,
    frames,
    binaryFrames,
    send: (frame) => socket.send(JSON.stringify(frame)),
    sendBinary: (bytes) => socket.send(bytes),
    next: async (match, timeoutMs = 3_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = frames.findIndex((frame, i) => !taken.has(i) && match(frame));
        if (index >= 0) {
          taken.add(index);
          return frames[index] as Frame;
        }
        if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: async () => {
      if (socket.readyState === ws.CLOSED) return;
      const closed = once(socket, 'close');
      socket.close();
      await closed;
    },
  };
}

/** The HTTP status and body of a refused WebSocket handshake. */
export async function refusedHandshake(
  url: string,
  options: { origin?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const socket = new ws(url, {
    ...(options.origin ? { origin: options.origin } : {}),
    headers: options.headers,
  });
  return new Promise((resolve, reject) => {
    socket.on('open', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    socket.on('error', () => undefined);
  });
}
