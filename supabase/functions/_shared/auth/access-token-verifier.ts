/**
 * Verifies Supabase Auth access tokens, as GoTrue issues them: an ES256 JWT signed by a key of the
 * project's JWKS, from issuer `${SUPABASE_URL}/auth/v1`, for audience `authenticated`, unexpired, with
 * role `authenticated` (the anon and service_role API keys are JWTs too, but no user's), and whose
 * session still exists, of a user neither deleted nor banned: signing out ends a session before its
 * tokens expire, but a ban or a soft delete leaves it in place.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { Database } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Principal } from '../principal.ts';
import type { CredentialVerifier } from './credential-verifier.ts';
import { selectSessionStanding, type SessionStanding } from './sessions.queries.ts';
import { invalidCredentials } from './unauthenticated.ts';
import {
  REMOVED_KEY_TRUSTED_MS,
  TRUST_VERIFIED_TOKEN_MS,
  verifiedTokenCache,
} from './verified-token-cache.ts';

export const ACCESS_TOKEN_ALGORITHM = 'ES256';
export const ACCESS_TOKEN_AUDIENCE = 'authenticated';
/** The `role` claim of a signed-in user; the API keys carry `anon` or `service_role`. */
const USER_ROLE = 'authenticated';
/** How far the Auth server's clock and ours may disagree about `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;
const KEYS_RETRY_AFTER_SECONDS = 5;

export interface AccessTokenVerifierOptions {
  /** The project's public signing keys: the remote JWKS in production, a local key set in tests. */
  keys: JWTVerifyGetKey;
  /** `${SUPABASE_URL}/auth/v1`, see authIssuer. */
  issuer: string;
  /** Where the session check runs, as the service (one statement). */
  db: Database;
}

/** The `iss` of the project's access tokens. */
export function authIssuer(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/auth/v1`;
}

/**
 * How long a fetched JWKS is used (jose's default is 10 minutes): with the verified-token cache, a key
 * removed from the JWKS stops being trusted within REMOVED_KEY_TRUSTED_MS.
 */
export const AUTH_KEYS_CACHE_MAX_AGE_MS = REMOVED_KEY_TRUSTED_MS - TRUST_VERIFIED_TOKEN_MS;
/**
 * A token with an unknown `kid` (a key just added) refetches the JWKS, but not within this time of the
 * last fetch, so tokens with made-up `kid`s cannot make every request fetch it.
 */
export const AUTH_KEYS_COOLDOWN_MS = 5_000;

/** The project's JWKS, fetched on first use and cached (refetched when stale, or for an unknown `kid`). */
export function remoteAuthKeys(supabaseUrl: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(`${authIssuer(supabaseUrl)}/.well-known/jwks.json`), {
    cacheMaxAge: AUTH_KEYS_CACHE_MAX_AGE_MS,
    cooldownDuration: AUTH_KEYS_COOLDOWN_MS,
  });
}

const SessionClaims = z.object({
  sub: z.uuid(),
  email: z.string().optional(),
  aal: z.enum(['aal1', 'aal2']),
  session_id: z.uuid(),
});

export function accessTokenVerifier({ keys, issuer, db }: AccessTokenVerifierOptions): CredentialVerifier {
  const verified = verifiedTokenCache(CLOCK_TOLERANCE_SECONDS);
  return {
    async verify(token) {
      const remembered = verified.get(token);
      const payload = remembered ?? (await verifiedPayload(token, keys, issuer));
      const { principal, sessionId } = principalFrom(payload);
      if (!remembered) verified.remember(token, payload);
      // Never cached, so a sign-out, ban or deletion takes effect on the very next request.
      const standing = await selectSessionStanding(db.serviceStatements, sessionId, principal.user_id);
      if (standing !== 'active') throw invalidCredentials(SESSION_REFUSALS[standing]);
      return principal;
    },
  };
}

const SESSION_REFUSALS: Record<Exclude<SessionStanding, 'active'>, string> = {
  ended: 'The session has ended (signed out or timed out). Sign in again.',
  banned: 'The account is banned.',
  deleted: 'The account has been deleted.',
};

async function verifiedPayload(token: string, keys: JWTVerifyGetKey, issuer: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      issuer,
      audience: ACCESS_TOKEN_AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'sub'],
    });
    return payload;
  } catch (error) {
    throw refusalFor(error);
  }
}

function refusalFor(error: unknown): AppError {
  // JWTExpired is a JWTClaimValidationFailed, so it is asked first.
  if (error instanceof errors.JWTExpired) {
    return invalidCredentials('The access token has expired. Refresh the session and try again.');
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const problem = error.reason === 'missing' ? 'is missing' : 'is not accepted';
    return invalidCredentials(`The access token's "${error.claim}" claim ${problem}.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return invalidCredentials(
      `The token is not signed with ${ACCESS_TOKEN_ALGORITHM}, so it is no user's access token (API keys are not).`,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return invalidCredentials("The access token's signature does not verify with this project's keys.");
  }
  if (isMalformed(error)) return invalidCredentials('The bearer token is not a well-formed JWT.');
  // Anything else means the keys themselves could not be had: a network failure, a timeout, a bad JWKS.
  return new AppError(
    'unavailable',
    'The keys that verify sign-ins could not be loaded. Try again shortly.',
    {
      headers: { 'Retry-After': String(KEYS_RETRY_AFTER_SECONDS) },
      cause: error,
    },
  );
}

function isMalformed(error: unknown): boolean {
  return (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKSMultipleMatchingKeys
  );
}

function principalFrom(payload: JWTPayload): { principal: Principal; sessionId: string } {
  if (payload.role !== USER_ROLE) {
    const role = typeof payload.role === 'string' ? `"${payload.role}"` : 'missing';
    throw invalidCredentials(
      `The token's role is ${role}: only a signed-in user's access token (role "${USER_ROLE}") is accepted.`,
    );
  }
  const claims = SessionClaims.safeParse(payload);
  if (!claims.success) {
    throw invalidCredentials(
      'The access token lacks the claims of a sign-in session (sub, session_id, aal).',
    );
  }
  const { sub, email, aal, session_id } = claims.data;
  return { principal: { user_id: sub, email: email || null, aal, session_id }, sessionId: session_id };
}
