import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../db.ts';
import type { ServiceHandler } from '../gateway/gateway.ts';
import { sendJson } from '../gateway/http.ts';
import type { StandInKeys } from '../keys.ts';
import { createUser, updateUserById } from './admin-user-writes.ts';
import { deleteUserById, getUserById, listUsers } from './admin-users.ts';
import { applyApiKey, MISSING_API_KEY_BODY } from './api-keys.ts';
import { clientAddress } from './client-address.ts';
import type { AuthContext } from './context.ts';
import { addCorsHeaders, answerPreflight } from './cors.ts';
import type { EmailTemplates } from './email-templates.ts';
import type { Endpoint } from './endpoint.ts';
import { AuthError, sendAuthError } from './errors.ts';
import { challengeFactor, verifyFactor } from './factor-challenges.ts';
import { enrollFactor, unenrollFactor } from './factors.ts';
import { deleteUserFactor, listUserFactors } from './admin-factors.ts';
import { manualLinkingDisabled, samlDisabled } from './disabled-features.ts';
import { generateLink } from './generate-link.ts';
import { health, jwks, settings } from './info-endpoints.ts';
import { invite } from './invite.ts';
import { logout } from './logout.ts';
import { otp } from './otp.ts';
import type { Mailer } from './mailer.ts';
import { createRateLimiter, type AuthRateLimits } from './rate-limits.ts';
import { reauthenticate } from './reauthenticate.ts';
import { recover } from './recover.ts';
import { resend } from './resend.ts';
import type { RedirectSettings } from './redirects.ts';
import { routeTable, type RouteParams } from '../gateway/route-table.ts';
import { signUp } from './signup.ts';
import { token } from './token.ts';
import { tokenIssuer } from './tokens.ts';
import { getUser, updateUser } from './user-endpoints.ts';
import { verifyLink, verifyOtp } from './verify.ts';

export interface AuthServiceOptions {
  database: Database;
  keys: StandInKeys;
  /** The public URL of the API gateway; tokens are issued by `${apiUrl}/auth/v1`. */
  apiUrl: string;
  refreshTokenReuseIntervalSeconds: number;
  mailer: Mailer;
  emailConfirmations: boolean;
  securePasswordChange: boolean;
  secureEmailChange: boolean;
  emailTemplates: EmailTemplates;
  redirects: RedirectSettings;
  rateLimits: AuthRateLimits;
}

const ENDPOINTS: Record<string, Endpoint> = {
  'GET /health': health,
  'GET /settings': settings,
  'GET /.well-known/jwks.json': jwks,
  'POST /signup': signUp,
  'POST /token': token,
  'GET /user': getUser,
  'PUT /user': updateUser,
  'POST /logout': logout,
  'GET /reauthenticate': reauthenticate,
  'POST /otp': otp,
  'POST /recover': recover,
  'POST /resend': resend,
  'GET /verify': verifyLink,
  'POST /verify': verifyOtp,
  'POST /admin/generate_link': generateLink,
  'POST /invite': invite,
  'POST /factors': enrollFactor,
  'POST /factors/{id}/challenge': challengeFactor,
  'POST /factors/{id}/verify': verifyFactor,
  'DELETE /factors/{id}': unenrollFactor,
  'GET /admin/users': listUsers,
  'POST /admin/users': createUser,
  'GET /admin/users/{id}': getUserById,
  'PUT /admin/users/{id}': updateUserById,
  'DELETE /admin/users/{id}': deleteUserById,
  'GET /admin/users/{id}/factors': listUserFactors,
  'DELETE /admin/users/{id}/factors/{factorId}': deleteUserFactor,
  'GET /user/identities/authorize': manualLinkingDisabled,
  'DELETE /user/identities/{id}': manualLinkingDisabled,
  'POST /sso': samlDisabled,
  'GET /sso/saml/metadata': samlDisabled,
  'POST /sso/saml/acs': samlDisabled,
};

const findEndpoint = routeTable(ENDPOINTS);

/**
 * Paths served without an API key: e-mail links, which a browser opens (Kong's `auth-v1-open` route), and
 * the JWKS, which hosted Supabase publishes openly so that anyone can verify its tokens.
 */
const OPEN_PATHS = new Set(['/verify', '/.well-known/jwks.json']);

/** A GoTrue-compatible Auth service for the gateway's /auth/v1 prefix. */
export function createAuthService(options: AuthServiceOptions): ServiceHandler {
  const context: AuthContext = {
    database: options.database,
    keys: options.keys,
    tokens: tokenIssuer(options.keys, `${options.apiUrl}/auth/v1`),
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds,
    externalUrl: `${options.apiUrl}/auth/v1`,
    mailer: options.mailer,
    emailConfirmations: options.emailConfirmations,
    securePasswordChange: options.securePasswordChange,
    secureEmailChange: options.secureEmailChange,
    emailTemplates: options.emailTemplates,
    redirects: options.redirects,
    rateLimiter: createRateLimiter(options.rateLimits),
  };
  return async (req, res, path) => {
    addCorsHeaders(res);
    if (req.method === 'OPTIONS') return answerPreflight(req, res);
    const url = new URL(path, 'http://auth.local');
    if (!applyApiKey(req, url, context.keys, { jwtKeyAsBearer: false }) && !OPEN_PATHS.has(url.pathname)) {
      return sendJson(res, 401, MISSING_API_KEY_BODY);
    }
    const route = findEndpoint(req.method ?? '', url.pathname);
    if (!route) return sendAuthError(req, res, new AuthError(404, 'not_found', 'Not Found'));
    await answer(context, route.handler, req, res, url, route.params);
  };
}

async function answer(
  context: AuthContext,
  endpoint: Endpoint,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  params: RouteParams,
): Promise<void> {
  try {
    context.rateLimiter.admit(req.method ?? '', url.pathname, clientAddress(req));
    const reply = await endpoint(context, req, url, params);
    if (reply.body === undefined) res.writeHead(reply.status, reply.headers).end();
    else sendJson(res, reply.status, reply.body, reply.headers);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    sendAuthError(req, res, error);
  }
}
