import type { IncomingMessage } from 'node:http';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { publicJwks, type StandInKeys } from '../keys.ts';
import { accessDenied } from './errors.ts';

/** Who a request runs as: the verified JWT, whose `role` becomes the database role for RLS. */
export interface Caller {
  role: DatabaseRole;
  /** The `sub` claim: the user id, absent for API keys. */
  sub: string | null;
  claims: JWTPayload;
  token: string;
}

export type DatabaseRole = 'anon' | 'authenticated' | 'service_role';
const ROLES: ReadonlySet<string> = new Set<DatabaseRole>(['anon', 'authenticated', 'service_role']);

export type CallerVerifier = (req: IncomingMessage) => Promise<Caller>;

/**
 * Verifies the Bearer token as Storage does: user tokens (ES256, with a `kid`) against the published keys,
 * API keys (HS256) against the project secret. Anything wrong is AccessDenied with jose's message.
 */
export function callerVerifier(keys: StandInKeys): CallerVerifier {
  const publicKeys = createLocalJWKSet(publicJwks(keys));
  const secret = new TextEncoder().encode(keys.jwtSecret);
  return async (req) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) throw accessDenied('Missing authorization header');
    const claims = await verified(token, publicKeys, secret);
    const role = typeof claims.role === 'string' ? claims.role : '';
    if (!ROLES.has(role)) throw accessDenied(`role "${role}" is not allowed`);
    return { role: role as DatabaseRole, sub: claims.sub ?? null, claims, token };
  };
}

async function verified(
  token: string,
  publicKeys: ReturnType<typeof createLocalJWKSet>,
  secret: Uint8Array,
): Promise<JWTPayload> {
  try {
    const { payload } = decodeProtectedHeader(token).kid
      ? await jwtVerify(token, publicKeys, { algorithms: ['ES256'] })
      : await jwtVerify(token, secret, { algorithms: ['HS256'] });
    return payload;
  } catch (error) {
    throw accessDenied(error instanceof Error ? error.message : 'invalid token');
  }
}
