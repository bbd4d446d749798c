/**
 * Which signing keys verify an access token (docs/decisions/0015): ES256 and RS256 keys of the project's
 * JWKS, given by the platform (SUPABASE_JWKS) or fetched; HS256 with the legacy JWT secret only when it is
 * configured; and never a token that picks its own way of being verified.
 */
import {
  createLocalJWKSet,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenVerifier,
  authIssuer,
} from '../../supabase/functions/_shared/auth/access-token-verifier.ts';
import { apiTokenVerifier } from '../../supabase/functions/_shared/auth/api-token-verifier.ts';
import { bearerCredentialVerifier } from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import { projectAuthKeys, remoteAuthKeys } from '../../supabase/functions/_shared/auth/signing-keys.ts';
import { createTestApp, useTestApp, type TestApp } from '../support/api-app.ts';
import { useJwksServer } from '../support/jwks-server.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import {
  accessTokenClaims,
  createTestUser,
  TEST_AUTH_ISSUER,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';

const api = useTestApp();
const ME = '/api/v1/me';
const LEGACY_SECRET = 'legacy-jwt-secret-of-the-project-at-least-32-characters';

interface SigningKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(alg: 'ES256' | 'RS256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, publicJwk };
}

/** A token as GoTrue signs it with `key`; `alg` may be forced to another value than the key's. */
function signWith(key: SigningKey, claims: JWTPayload, alg: string = key.alg): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}

/** A token as GoTrue signs it on a project still on the legacy JWT secret: HS256, no `kid`. */
function signWithSecret(claims: JWTPayload, secret: string | Uint8Array, kid?: string): Promise<string> {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid }).sign(bytes);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The app, as index.ts builds it, on these keys (and the legacy secret when given). */
function appOn(keys: JWTVerifyGetKey, legacyJwtSecret?: string, issuer = TEST_AUTH_ISSUER): TestApp {
  return createTestApp(api.databaseUrl, {
    credentials: (db) =>
      bearerCredentialVerifier({
        accessTokens: accessTokenVerifier({ keys, legacyJwtSecret, issuer, db }),
        apiTokens: apiTokenVerifier({ db }),
      }),
  });
}

function expectRefused(response: ApiResponse, detail: RegExp): void {
  expect(response.status).toBe(401);
  expect(problemOf(response).code).toBe('unauthenticated');
  expect(problemOf(response).detail).toMatch(detail);
}

let user: TestUser;
let es256: SigningKey;
let rs256: SigningKey;
const apps: TestApp[] = [];
beforeAll(async () => {
  user = await createTestUser(api.db);
  [es256, rs256] = await Promise.all([signingKey('ES256', 'ec-key'), signingKey('RS256', 'rsa-key')]);
});
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** An app closed after the file's tests. */
function kept(app: TestApp): TestApp {
  apps.push(app);
  return app;
}

describe('keys from a local JWKS (as SUPABASE_JWKS gives them)', () => {
  let app: TestApp;
  beforeAll(() => {
    app = kept(appOn(createLocalJWKSet({ keys: [es256.publicJwk, rs256.publicJwk] })));
  });

  it('an RS256 token verifies with the RSA key, and an ES256 one with the EC key', async () => {
    for (const key of [rs256, es256]) {
      const response = await callApi(app.app, ME, withBearer(await signWith(key, accessTokenClaims(user))));
      expect(response.status, key.alg).toBe(200);
      expect(response.body).toMatchObject({ id: user.id });
    }
  });

  it("refuses a token whose alg is not its key's: the RSA key's kid with ES256, or the EC key's with RS256", async () => {
    const rsaToken = await signWith(rs256, accessTokenClaims(user));
    expect((await callApi(app.app, ME, withBearer(rsaToken))).status).toBe(200);
    // Signed by the EC key, but naming the RSA key: no key of that type and alg, so none verifies it.
    const ecAsRsaKid = await new SignJWT(accessTokenClaims(user))
      .setProtectedHeader({ alg: 'ES256', kid: rs256.kid, typ: 'JWT' })
      .sign(es256.privateKey);
    expectRefused(await callApi(app.app, ME, withBearer(ecAsRsaKid)), /signature does not verify/);
    // A key that names no alg still only verifies the algorithms of its own type.
    const { alg: _alg, ...unnamedEcJwk } = es256.publicJwk;
    const unnamed = kept(appOn(createLocalJWKSet({ keys: [unnamedEcJwk, rs256.publicJwk] })));
    const rsaAsEcKid = await new SignJWT(accessTokenClaims(user))
      .setProtectedHeader({ alg: 'RS256', kid: es256.kid, typ: 'JWT' })
      .sign(rs256.privateKey);
    expectRefused(await callApi(unnamed.app, ME, withBearer(rsaAsEcKid)), /signature does not verify/);
  });
});

describe('keys from the remote JWKS', () => {
  const jwks = useJwksServer();
  const { requestedPaths } = jwks;

  beforeAll(() => {
    jwks.keys = [es256.publicJwk, rs256.publicJwk];
  });

  const claims = () => ({ ...accessTokenClaims(user), iss: authIssuer(jwks.url) });

  it('verify RS256 and ES256 tokens, with one fetch', async () => {
    requestedPaths.length = 0;
    const remote = kept(appOn(remoteAuthKeys(jwks.url), undefined, authIssuer(jwks.url)));
    for (const key of [rs256, es256]) {
      const response = await callApi(remote.app, ME, withBearer(await signWith(key, claims())));
      expect(response.status, key.alg).toBe(200);
    }
    expect(requestedPaths).toEqual(['/auth/v1/.well-known/jwks.json']);
  });

  it("from SUPABASE_JWKS are used without any fetch; a kid it does not know is looked up in the project's JWKS", async () => {
    requestedPaths.length = 0;
    const standby = await signingKey('RS256', 'standby-key');
    jwks.keys = [es256.publicJwk, rs256.publicJwk, standby.publicJwk];
    try {
      const { keys } = projectAuthKeys(jwks.url, { keys: [es256.publicJwk, rs256.publicJwk] });
      const platform = kept(appOn(keys, undefined, authIssuer(jwks.url)));
      for (const key of [rs256, es256]) {
        const response = await callApi(platform.app, ME, withBearer(await signWith(key, claims())));
        expect(response.status, key.alg).toBe(200);
      }
      expect(requestedPaths).toEqual([]);
      // A standby key made after the function started is in the remote JWKS only.
      const response = await callApi(platform.app, ME, withBearer(await signWith(standby, claims())));
      expect(response.status).toBe(200);
      expect(requestedPaths).toEqual(['/auth/v1/.well-known/jwks.json']);
    } finally {
      jwks.keys = [es256.publicJwk, rs256.publicJwk];
    }
  });

  it('from an empty SUPABASE_JWKS are fetched instead', async () => {
    requestedPaths.length = 0;
    const { keys } = projectAuthKeys(jwks.url, { keys: [] });
    const platform = kept(appOn(keys, undefined, authIssuer(jwks.url)));
    const response = await callApi(platform.app, ME, withBearer(await signWith(rs256, claims())));
    expect(response.status).toBe(200);
    expect(requestedPaths).toEqual(['/auth/v1/.well-known/jwks.json']);
  });
});

describe('the legacy JWT secret', () => {
  const jwks = () => createLocalJWKSet({ keys: [es256.publicJwk, rs256.publicJwk] });

  it('verifies HS256 tokens when it is configured, and only then', async () => {
    const legacy = await signWithSecret(accessTokenClaims(user), LEGACY_SECRET);
    const withSecret = kept(appOn(jwks(), LEGACY_SECRET));
    const response = await callApi(withSecret.app, ME, withBearer(legacy));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id });
    // Asymmetric keys keep working beside it.
    expect(
      (await callApi(withSecret.app, ME, withBearer(await signWith(es256, accessTokenClaims(user))))).status,
    ).toBe(200);

    const withoutSecret = kept(appOn(jwks()));
    expectRefused(
      await callApi(withoutSecret.app, ME, withBearer(legacy)),
      /^The token is not signed with ES256 or RS256, so it is no user's access token/,
    );
  });

  it('refuses an HS256 token signed with another secret, and the anon key it signs (not a user)', async () => {
    const app = kept(appOn(jwks(), LEGACY_SECRET));
    expect(
      (await callApi(app.app, ME, withBearer(await signWithSecret(accessTokenClaims(user), LEGACY_SECRET))))
        .status,
    ).toBe(200);
    const forged = await signWithSecret(accessTokenClaims(user), `${LEGACY_SECRET}-but-another`);
    expectRefused(await callApi(app.app, ME, withBearer(forged)), /signature does not verify/);
    const now = Math.floor(Date.now() / 1000);
    const anonKey = await signWithSecret(
      { iss: TEST_AUTH_ISSUER, role: 'anon', aud: 'authenticated', sub: user.id, iat: now, exp: now + 3600 },
      LEGACY_SECRET,
    );
    expectRefused(await callApi(app.app, ME, withBearer(anonKey)), /The token's role is "anon"/);
  });
});

describe('algorithm confusion', () => {
  let app: TestApp;
  beforeAll(() => {
    app = kept(appOn(createLocalJWKSet({ keys: [es256.publicJwk, rs256.publicJwk] }), LEGACY_SECRET));
  });

  it('an HS256 token keyed with a public key (its PEM, or its JWK) does not verify, though the secret is configured', async () => {
    expect(
      (await callApi(app.app, ME, withBearer(await signWithSecret(accessTokenClaims(user), LEGACY_SECRET))))
        .status,
    ).toBe(200);
    for (const key of [rs256, es256]) {
      const pem = await exportSPKI(key.publicKey);
      for (const publicBytes of [pem, JSON.stringify(key.publicJwk)]) {
        const confused = await signWithSecret(accessTokenClaims(user), publicBytes, key.kid);
        expectRefused(await callApi(app.app, ME, withBearer(confused)), /signature does not verify/);
      }
    }
  });

  it('an unsigned token (alg "none") is refused, with or without a kid', async () => {
    expect(
      (await callApi(app.app, ME, withBearer(await signWith(rs256, accessTokenClaims(user))))).status,
    ).toBe(200);
    for (const header of [
      { alg: 'none', typ: 'JWT' },
      { alg: 'none', typ: 'JWT', kid: rs256.kid },
    ]) {
      const unsigned = `${base64url(header)}.${base64url(accessTokenClaims(user))}.`;
      expectRefused(
        await callApi(app.app, ME, withBearer(unsigned)),
        /^The token is not signed with ES256, RS256 or HS256/,
      );
    }
  });
});
