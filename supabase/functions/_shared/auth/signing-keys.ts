/**
 * Where the public keys that verify access tokens come from (docs/decisions/0015): the JWKS the platform
 * hands the function in SUPABASE_JWKS when it does (hosted Edge Functions get it), else the project's
 * JWKS endpoint, `${SUPABASE_URL}/auth/v1/.well-known/jwks.json`, fetched and cached. A project still on
 * the legacy JWT secret publishes no key at all, so the function says so at startup instead of answering
 * every signed-in request 401 without a word.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import { describeError } from '../describe-error.ts';
import type { Logger } from '../logger.ts';
import { authIssuer } from './access-token-verifier.ts';
import { REMOVED_KEY_TRUSTED_MS, TRUST_VERIFIED_TOKEN_MS } from './verified-token-cache.ts';

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

/** The key types of the asymmetric signing keys the verifier accepts (ES256: EC, RS256: RSA). */
const ASYMMETRIC_KEY_TYPES: readonly string[] = ['EC', 'RSA'];

export type RemoteAuthKeys = ReturnType<typeof createRemoteJWKSet>;

export function authJwksUrl(supabaseUrl: string): URL {
  return new URL(`${authIssuer(supabaseUrl)}/.well-known/jwks.json`);
}

/** The project's JWKS, fetched on first use and cached (refetched when stale, or for an unknown `kid`). */
export function remoteAuthKeys(supabaseUrl: string): RemoteAuthKeys {
  return createRemoteJWKSet(authJwksUrl(supabaseUrl), {
    cacheMaxAge: AUTH_KEYS_CACHE_MAX_AGE_MS,
    cooldownDuration: AUTH_KEYS_COOLDOWN_MS,
  });
}

export interface ProjectAuthKeys {
  /** Resolves a token's public key, as jwtVerify asks for it. */
  keys: JWTVerifyGetKey;
  /** How many asymmetric signing keys the project has: the platform's, else the fetched JWKS's. */
  count(): Promise<number>;
}

/**
 * The project's public keys: SUPABASE_JWKS's when the platform gives it, so no request waits on a fetch.
 * That value is a snapshot taken when the function started, so a `kid` it does not know (a standby key
 * made since) is looked up in the remote JWKS, under the same cooldown.
 */
export function projectAuthKeys(supabaseUrl: string, platformJwks?: JSONWebKeySet): ProjectAuthKeys {
  const remote = remoteAuthKeys(supabaseUrl);
  const platformCount = platformJwks ? usableKeyCount(platformJwks) : 0;
  if (!platformJwks || platformCount === 0) {
    return { keys: remote, count: () => remoteKeyCount(remote) };
  }
  const platform = createLocalJWKSet(platformJwks);
  return {
    keys: async (header, token) => {
      try {
        return await platform(header, token);
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey) return remote(header, token);
        throw error;
      }
    },
    count: () => Promise.resolve(platformCount),
  };
}

async function remoteKeyCount(remote: RemoteAuthKeys): Promise<number> {
  await remote.reload();
  const jwks = remote.jwks();
  return jwks ? usableKeyCount(jwks) : 0;
}

function usableKeyCount(jwks: JSONWebKeySet): number {
  return jwks.keys.filter((key) => key.kty !== undefined && ASYMMETRIC_KEY_TYPES.includes(key.kty)).length;
}

export const NO_SIGNING_KEYS_MESSAGE =
  "The project's JWKS has no asymmetric JWT signing key (ES256 or RS256), so no access token can be " +
  'verified: every signed-in request will be answered 401. Rotate to asymmetric JWT signing keys ' +
  '(Dashboard → Project Settings → JWT Keys), or set TASKLANE_LEGACY_JWT_SECRET to the legacy JWT ' +
  'secret. See docs/decisions/0015.';

export const LEGACY_SECRET_ONLY_MESSAGE =
  "The project's JWKS has no asymmetric JWT signing key: only access tokens signed with the legacy JWT " +
  'secret (HS256, TASKLANE_LEGACY_JWT_SECRET) can be verified. Rotate to asymmetric JWT signing keys ' +
  '(Dashboard → Project Settings → JWT Keys), then unset it. See docs/decisions/0015.';

/**
 * Logs, once at startup, when no access token could be verified for want of keys. It never throws and
 * is not awaited: boot goes on, and a JWKS that cannot be fetched now is fetched again by requests.
 */
export async function reportSigningKeys(
  authKeys: ProjectAuthKeys,
  hasLegacySecret: boolean,
  logger: Logger,
): Promise<void> {
  let count: number;
  try {
    count = await authKeys.count();
  } catch (error) {
    logger.warn(
      'The JWT signing keys could not be loaded at startup; requests will try again.',
      describeError(error),
    );
    return;
  }
  if (count > 0) return;
  if (hasLegacySecret) logger.warn(LEGACY_SECRET_ONLY_MESSAGE);
  else logger.error(NO_SIGNING_KEYS_MESSAGE);
}
