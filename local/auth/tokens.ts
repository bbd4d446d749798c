import { randomInt } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { publicJwks, type StandInKeys } from '../keys.ts';
import { AuthError } from './errors.ts';
import type { AmrClaim, AuthenticatorAssuranceLevel } from './sessions.queries.ts';
import type { UserRow } from './users.queries.ts';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const AUDIENCE = 'authenticated';
const REFRESH_TOKEN_LENGTH = 12;
const ALPHANUMERICS = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface AccessTokenSubject {
  user: UserRow;
  sessionId: string;
  aal: AuthenticatorAssuranceLevel;
  amr: AmrClaim[];
}

export interface VerifiedClaims extends JWTPayload {
  session_id?: string;
}

export interface TokenIssuer {
  issueAccessToken(subject: AccessTokenSubject): Promise<{ token: string; expiresAt: number }>;
  verifyAccessToken(token: string): Promise<VerifiedClaims>;
}

/** Signs user access tokens with the stand-in's ES256 key, with the claims GoTrue puts in them. */
export function tokenIssuer(keys: StandInKeys, issuer: string): TokenIssuer {
  const privateKey = importJWK(keys.signingKey, 'ES256');
  const publicKeys = createLocalJWKSet(publicJwks(keys));
  const legacySecret = new TextEncoder().encode(keys.jwtSecret);
  return {
    async issueAccessToken(subject) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS;
      const token = await new SignJWT(accessTokenClaims(subject))
        .setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(subject.user.id)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(await privateKey);
      return { token, expiresAt };
    },
    async verifyAccessToken(token) {
      try {
        // As GoTrue: tokens with a `kid` are checked against the published keys, HS256 ones against the secret.
        const { payload } = decodeProtectedHeader(token).kid
          ? await jwtVerify(token, publicKeys, { algorithms: ['ES256'] })
          : await jwtVerify(token, legacySecret, { algorithms: ['HS256'] });
        return payload;
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unknown reason';
        throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
      }
    },
  };
}

function accessTokenClaims({ user, sessionId, aal, amr }: AccessTokenSubject): JWTPayload {
  return {
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? AUDIENCE,
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
}

/** GoTrue's v1 refresh tokens: 12 random lower-case alphanumerics. */
export function newRefreshToken(): string {
  return Array.from(
    { length: REFRESH_TOKEN_LENGTH },
    () => ALPHANUMERICS[randomInt(ALPHANUMERICS.length)],
  ).join('');
}
