import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { invalidJwt, invalidSignature } from './errors.ts';

export type UrlScope = 'download' | 'upload';

/** The claims of a signed URL's token (Storage's object.ts): which object, for what, and for whom. */
export interface UrlClaims extends JWTPayload {
  url: string;
  scope?: UrlScope;
  owner?: string;
  upsert?: boolean;
}

export interface UrlTokens {
  sign(claims: UrlClaims, expiresInSeconds: number): Promise<string>;
  /** The claims, once the signature, expiry, scope and object (`<bucket>/<path>`) all check out. */
  verify(token: string | null, scope: UrlScope, url: string): Promise<UrlClaims>;
}

/** HS256 tokens signed with the project JWT secret, Storage's default URL signing key. */
export function urlTokens(jwtSecret: string): UrlTokens {
  const secret = new TextEncoder().encode(jwtSecret);
  return {
    async sign(claims, expiresInSeconds) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + expiresInSeconds)
        .sign(secret);
    },
    async verify(token, scope, url) {
      if (!token) throw invalidJwt('jwt must be provided');
      const claims = await verified(token, secret);
      // Download tokens made before scopes existed carry none; Storage still honours them.
      const scopeMatches = claims.scope === scope || (scope === 'download' && claims.scope === undefined);
      if (!scopeMatches || claims.url !== url) throw invalidSignature();
      return claims;
    },
  };
}

async function verified(token: string, secret: Uint8Array): Promise<UrlClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.url !== 'string') throw new Error('the token names no object');
    return payload as UrlClaims;
  } catch (error) {
    throw invalidJwt(error instanceof Error ? error.message : 'invalid token');
  }
}
