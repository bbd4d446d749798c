import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { ServiceHandler } from '../gateway/gateway.ts';
import { sendJson } from '../gateway/http.ts';
import type { StandInKeys } from '../keys.ts';
import { applyApiKey, MISSING_API_KEY_BODY } from './api-keys.ts';
import type { AuthContext } from './context.ts';
import { addCorsHeaders, answerPreflight } from './cors.ts';
import { AuthError, sendAuthError } from './errors.ts';
import { health, jwks, settings } from './info-endpoints.ts';
import { logout } from './logout.ts';
import type { Reply } from './reply.ts';
import { signUp } from './signup.ts';
import { token } from './token.ts';
import { tokenIssuer } from './tokens.ts';
import { getUser, updateUser } from './user-endpoints.ts';

export interface AuthServiceOptions {
  pool: pg.Pool;
  keys: StandInKeys;
  /** The public URL of the API gateway; tokens are issued by `${apiUrl}/auth/v1`. */
  apiUrl: string;
  refreshTokenReuseIntervalSeconds: number;
}

type Endpoint = (context: AuthContext, req: IncomingMessage, url: URL) => Promise<Reply> | Reply;

const ENDPOINTS: Record<string, Endpoint> = {
  'GET /health': health,
  'GET /settings': settings,
  'GET /.well-known/jwks.json': jwks,
  'POST /signup': signUp,
  'POST /token': token,
  'GET /user': getUser,
  'PUT /user': updateUser,
  'POST /logout': logout,
};

/** A GoTrue-compatible Auth service for the gateway's /auth/v1 prefix. */
export function createAuthService(options: AuthServiceOptions): ServiceHandler {
  const context: AuthContext = {
    pool: options.pool,
    keys: options.keys,
    tokens: tokenIssuer(options.keys, `${options.apiUrl}/auth/v1`),
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds,
  };
  return async (req, res, path) => {
    addCorsHeaders(res);
    if (req.method === 'OPTIONS') return answerPreflight(req, res);
    const url = new URL(path, 'http://auth.local');
    if (!applyApiKey(req, url, context.keys)) return sendJson(res, 401, MISSING_API_KEY_BODY);
    const endpoint = ENDPOINTS[`${req.method} ${url.pathname}`];
    if (!endpoint) return sendAuthError(req, res, new AuthError(404, 'not_found', 'Not Found'));
    await answer(context, endpoint, req, res, url);
  };
}

async function answer(
  context: AuthContext,
  endpoint: Endpoint,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  try {
    const reply = await endpoint(context, req, url);
    if (reply.body === undefined) res.writeHead(reply.status, reply.headers).end();
    else sendJson(res, reply.status, reply.body, reply.headers);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    sendAuthError(req, res, error);
  }
}
