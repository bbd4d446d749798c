import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
} from 'jose';
import { publicJwks, type StandInKeys } from '../keys.ts';

/** The claims of a verified token; `role` and `exp` are always there (Realtime requires them). */
export interface RealtimeClaims extends JWTPayload {
  role: string;
  exp: number;
}

/** Why a token was refused, with the texts hosted Realtime uses on the handshake and in join replies. */
export interface TokenRefusal {
  /** The `{"error": …}` of a refused handshake. */
  handshakeError: string;
  /** The `reason` of a refused join: `<Code>: <message>`. */
  joinReason: string;
  /** The message of the `system` push that shuts a channel down. */
  message: string;
}

export type TokenCheck = { ok: true; claims: RealtimeClaims } | { ok: false; refusal: TokenRefusal };

export type TokenVerifier = (token: string) => Promise<TokenCheck>;

const MALFORMED = refusal('MalformedJWT', 'The token provided is not a valid JWT');
const MISSING_CLAIMS = refusal('InvalidJWTToken', 'Fields `role` and `exp` are required in JWT');
const BAD_SIGNATURE = refusal('JwtSignatureError', 'Failed to validate JWT signature');

/**
 * Verifies tokens as Realtime does (docs/supabase-protocols.md#connecting): a JWT with `role` and `exp`,
 * signed by the API-key secret (HS256) or by the key published in the JWKS (ES256 user tokens), and not
 * expired.
 */
export function tokenVerifier(keys: StandInKeys): TokenVerifier {
  const publicKeys = createLocalJWKSet(publicJwks(keys));
  const secret = new TextEncoder().encode(keys.jwtSecret);
  return async (token) => {
    const claims = decodeClaims(token);
    if (!claims) return { ok: false, refusal: MALFORMED };
    if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
      return { ok: false, refusal: MISSING_CLAIMS };
    }
    try {
      const { payload } = decodeProtectedHeader(token).kid
        ? await jwtVerify(token, publicKeys, { algorithms: ['ES256'] })
        : await jwtVerify(token, secret, { algorithms: ['HS256'] });
      return { ok: true, claims: payload as RealtimeClaims };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, refusal: expired(claims.exp) };
      return { ok: false, refusal: BAD_SIGNATURE };
    }
  };
}

/** The refusal of a token whose `exp` has passed. */
export function expired(exp: number): TokenRefusal {
  const secondsAgo = Math.max(0, Math.floor(Date.now() / 1000) - exp);
  return {
    handshakeError: 'Token has expired',
    joinReason: `InvalidJWTToken: Token has expired ${secondsAgo} seconds ago`,
    message: `Token has expired ${secondsAgo} seconds ago`,
  };
}

function decodeClaims(token: string): JWTPayload | null {
  try {
    decodeProtectedHeader(token);
    return decodeJwt(token);
  } catch {
    return null;
  }
}

function refusal(code: string, message: string): TokenRefusal {
  return { handshakeError: message, joinReason: `${code}: ${message}`, message };
}
