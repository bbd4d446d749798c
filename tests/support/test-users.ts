/**
 * Signed-in users for API tests: a user and its session inserted as the stand-in's Auth inserts them (so
 * the profile trigger fires), and access tokens with GoTrue's claims, signed by a test ES256 key that the
 * app under test trusts (testCredentials, which createTestApp uses).
 */
import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import {
  accessTokenVerifier,
  authIssuer,
} from '../../supabase/functions/_shared/auth/access-token-verifier.ts';
import { apiTokenVerifier } from '../../supabase/functions/_shared/auth/api-token-verifier.ts';
import {
  bearerCredentialVerifier,
  type CredentialVerifier,
} from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { asService } from './service-transaction.ts';

export const TEST_SUPABASE_URL = 'http://127.0.0.1:54321';
export const TEST_AUTH_ISSUER = authIssuer(TEST_SUPABASE_URL);
const TEST_KEY_ID = 'tasklane-test-signing-key';
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] };

const signingKeys = await generateKeyPair('ES256');
/** The public half of the test signing key, as a JWK with its `kid`. */
export const testPublicJwk = {
  ...(await exportJWK(signingKeys.publicKey)),
  kid: TEST_KEY_ID,
  alg: 'ES256',
  use: 'sig',
};

/** The JWKS the app under test verifies against, as `${SUPABASE_URL}/auth/v1/.well-known/jwks.json` serves it. */
export const testAuthKeys = createLocalJWKSet({ keys: [testPublicJwk] });

/** The app's credential verifier, as index.ts builds it, but on the test key instead of the remote JWKS. */
export function testCredentials(db: Database): CredentialVerifier {
  return bearerCredentialVerifier({
    accessTokens: accessTokenVerifier({ keys: testAuthKeys, issuer: TEST_AUTH_ISSUER, db }),
    apiTokens: apiTokenVerifier({ db }),
  });
}

export interface TestUser {
  id: string;
  email: string;
  sessionId: string;
  /** An aal1 access token for the session, as after a password sign-in. */
  accessToken: string;
  /** Who the app should see behind `accessToken`. */
  principal: Principal;
}

export interface NewTestUser {
  email?: string;
  /** Sign-up metadata `display_name`, as `supabase.auth.signUp({ options: { data } })` sends it. */
  displayName?: string;
}

/** Inserts a confirmed e-mail user and one session for it, and signs an access token for that session. */
export async function createTestUser(
  db: Database,
  { email, displayName }: NewTestUser = {},
): Promise<TestUser> {
  const id = randomUUID();
  const sessionId = randomUUID();
  const address = email ?? `user-${id.slice(0, 8)}@example.com`;
  const metadata = displayName === undefined ? {} : { display_name: displayName };
  await asService(db, async (sql) => {
    await sql.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
         now(), $3, $4, now(), now(), false)`,
      [id, address, EMAIL_APP_METADATA, metadata],
    );
    await sql.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
      [sessionId, id],
    );
  });
  const user = { id, email: address, sessionId };
  return {
    ...user,
    accessToken: await signWithTestKey(accessTokenClaims(user)),
    principal: { user_id: id, email: address, aal: 'aal1', session_id: sessionId },
  };
}

/** The claims GoTrue puts in an access token (see local/auth/tokens.ts), valid for an hour from now. */
export function accessTokenClaims(
  user: Pick<TestUser, 'id' | 'email' | 'sessionId'>,
  aal: 'aal1' | 'aal2' = 'aal1',
): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const amr = [{ method: 'password', timestamp: now }];
  return {
    iss: TEST_AUTH_ISSUER,
    sub: user.id,
    aud: 'authenticated',
    exp: now + ACCESS_TOKEN_LIFETIME_SECONDS,
    iat: now,
    email: user.email,
    phone: '',
    app_metadata: EMAIL_APP_METADATA,
    user_metadata: {},
    role: 'authenticated',
    aal,
    amr: aal === 'aal2' ? [{ method: 'totp', timestamp: now }, ...amr] : amr,
    session_id: user.sessionId,
    is_anonymous: false,
  };
}

/** Signs claims as the Auth server does (ES256, with the key's `kid`); pass another key to forge. */
export function signWithTestKey(
  claims: JWTPayload,
  key: CryptoKey = signingKeys.privateKey,
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: TEST_KEY_ID, typ: 'JWT' }).sign(key);
}

/** Ends a session, as signing out does. */
export async function endSession(db: Database, sessionId: string): Promise<void> {
  await asService(db, (sql) => sql.query('delete from auth.sessions where id = $1', [sessionId]));
}

/** `init` with `Authorization: Bearer <token>` added to its headers. */
export function withBearer(token: string, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return { ...init, headers };
}

export interface NewMfaFactor {
  status?: 'verified' | 'unverified';
  friendlyName?: string;
  /** ISO timestamp; now by default. */
  createdAt?: string;
}

/** Gives the user a TOTP factor, as enrolling (and, when verified, verifying) it would. Returns its id. */
export async function insertMfaFactor(
  db: Database,
  userId: string,
  { status = 'verified', friendlyName = 'Phone', createdAt = new Date().toISOString() }: NewMfaFactor = {},
): Promise<string> {
  const id = randomUUID();
  await asService(db, (sql) =>
    sql.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', $4, $5, $5, 'JBSWY3DPEHPK3PXP')`,
      [id, userId, friendlyName, status, createdAt],
    ),
  );
  return id;
}

/** An access token for the user's session after it verified a second factor. */
export function aal2AccessTokenOf(user: Pick<TestUser, 'id' | 'email' | 'sessionId'>): Promise<string> {
  return signWithTestKey(accessTokenClaims(user, 'aal2'));
}
