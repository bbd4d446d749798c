/**
 * Verifies Supabase Auth access tokens, as GoTrue issues them: a JWT signed by an asymmetric key of the
 * project's JWKS (ES256 or RS256), or, only when the project's legacy JWT secret is configured, an HS256
 * JWT signed with it (docs/decisions/0015); from issuer `${SUPABASE_URL}/auth/v1`, for audience
 * `authenticated`, unexpired, with role `authenticated` (the anon and service_role API keys are JWTs too,
 * but no user's), and whose session still exists, of a user neither deleted nor banned: signing out ends
 * a session before its tokens expire, but a ban or a soft delete leaves it in place.
 */
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { Database, Sql } from '../db.ts';
import { AppError } from '../errors.ts';
import { principalKeyOf, type Principal } from '../principal.ts';
import type { SendBesideCheck, CountedPrincipal, CredentialVerifier } from './credential-verifier.ts';
import { countRequest } from './request-counts.queries.ts';
import { selectSessionStanding, type SessionStanding } from './sessions.queries.ts';
import { invalidCredentials } from './unauthenticated.ts';
import { verifiedTokenCache } from './verified-token-cache.ts';

/** What a public key of the JWKS may verify: EC P-256 keys ES256, RSA keys RS256 (jose ties each to its key type). */
export const JWKS_ALGORITHMS = ['ES256', 'RS256'] as const;
/** What the legacy JWT secret verifies, and nothing else does. */
export const LEGACY_SECRET_ALGORITHM = 'HS256';
export const ACCESS_TOKEN_AUDIENCE = 'authenticated';
/** The `role` claim of a signed-in user; the API keys carry `anon` or `service_role`. */
const USER_ROLE = 'authenticated';
/** How far the Auth server's clock and ours may disagree about `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;
const KEYS_RETRY_AFTER_SECONDS = 5;

export interface AccessTokenVerifierOptions {
  /** The project's public signing keys: the JWKS in production (signing-keys.ts), a local key set in tests. */
  keys: JWTVerifyGetKey;
  /** The project's legacy JWT secret, when it is still on it; unset, HS256 tokens are refused. */
  legacyJwtSecret?: string;
  /** `${SUPABASE_URL}/auth/v1`, see authIssuer. */
  issuer: string;
  /** Where the session check runs, as the service (one statement). */
  db: Database;
}

/** The `iss` of the project's access tokens. */
export function authIssuer(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/auth/v1`;
}

interface VerificationKeys {
  getKey: JWTVerifyGetKey;
  algorithms: readonly string[];
}

/**
 * Each algorithm has one source of keys, so a token cannot choose how it is verified: jose refuses an
 * algorithm not listed before it asks for a key, HS256 goes to the secret alone, and ES256 and RS256 to
 * the JWKS, which holds public keys only and matches a key's type (and `alg`, when it names one) to the
 * token's. An HS256 token "signed" with a public key's bytes, or an `alg: none` token, never verifies.
 */
function verificationKeys(keys: JWTVerifyGetKey, legacyJwtSecret: string | undefined): VerificationKeys {
  if (legacyJwtSecret === undefined) return { getKey: keys, algorithms: JWKS_ALGORITHMS };
  const secret = new TextEncoder().encode(legacyJwtSecret);
  return {
    getKey: (header, token) => (header.alg === LEGACY_SECRET_ALGORITHM ? secret : keys(header, token)),
    algorithms: [...JWKS_ALGORITHMS, LEGACY_SECRET_ALGORITHM],
  };
}

const SessionClaims = z.object({
  sub: z.uuid(),
  email: z.string().optional(),
  aal: z.enum(['aal1', 'aal2']),
  session_id: z.uuid(),
});

export function accessTokenVerifier({
  keys,
  legacyJwtSecret,
  issuer,
  db,
}: AccessTokenVerifierOptions): CredentialVerifier {
  const verified = verifiedTokenCache(CLOCK_TOLERANCE_SECONDS);
  const verification = verificationKeys(keys, legacyJwtSecret);
  const verifiedClaims = async (token: string) => {
    const remembered = verified.get(token);
    const payload = remembered ?? (await verifiedPayload(token, verification, issuer));
    const claims = principalFrom(payload);
    if (!remembered) verified.remember(token, payload);
    return claims;
  };
  const verifyAndCount = async (
    token: string,
    windowSeconds?: number,
    alongside?: SendBesideCheck,
  ): Promise<CountedPrincipal> => {
    const claims = await verifiedClaims(token);
    return db.serviceStatements((sql) => sessionCheck(sql, claims, windowSeconds, alongside));
  };
  return {
    verify: async (token) => (await verifyAndCount(token)).principal,
    verifyAndCount,
    verifyAhead: async (token, windowSeconds, _checkFirst, run) => {
      const claims = await verifiedClaims(token);
      return db.withServiceWorkAhead(
        claims.principal,
        (sql) => sessionCheck(sql, claims, windowSeconds),
        (verdict) => run(claims.principal, verdict),
      );
    },
  };
}

/**
 * The session's check, never cached, so that a sign-out, ban or deletion takes effect on the very next
 * request. The count travels with it, in the same round trip; a refused session's request counts for
 * its user too.
 */
async function sessionCheck(
  sql: Sql,
  { principal, sessionId }: { principal: Principal; sessionId: string },
  windowSeconds: number | undefined,
  alongside?: SendBesideCheck,
): Promise<CountedPrincipal> {
  const [standing, count] = await Promise.all([
    selectSessionStanding(sql, sessionId, principal.user_id),
    windowSeconds === undefined ? undefined : countRequest(sql, principalKeyOf(principal), windowSeconds),
    alongside?.(sql, { userId: principal.user_id, principal: principalKeyOf(principal) }),
  ]);
  if (standing !== 'active') throw invalidCredentials(SESSION_REFUSALS[standing]);
  return count === undefined ? { principal } : { principal, count };
}

const SESSION_REFUSALS: Record<Exclude<SessionStanding, 'active'>, string> = {
  ended: 'The session has ended (signed out or timed out). Sign in again.',
  banned: 'The account is banned.',
  deleted: 'The account has been deleted.',
};

async function verifiedPayload(
  token: string,
  { getKey, algorithms }: VerificationKeys,
  issuer: string,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: [...algorithms],
      issuer,
      audience: ACCESS_TOKEN_AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'sub'],
    });
    return payload;
  } catch (error) {
    throw refusalFor(error, algorithms);
  }
}

function refusalFor(error: unknown, algorithms: readonly string[]): AppError {
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
      `The token is not signed with ${listed(algorithms)}, so it is no user's access token of this project (API keys are not).`,
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

/** `ES256, RS256 or HS256` */
function listed(algorithms: readonly string[]): string {
  return algorithms.length < 2
    ? algorithms.join('')
    : `${algorithms.slice(0, -1).join(', ')} or ${algorithms.at(-1) ?? ''}`;
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
