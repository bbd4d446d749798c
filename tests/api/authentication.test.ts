import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  OPTIONAL_CREDENTIAL_ROUTES,
  PUBLIC_ROUTES,
  SERVICE_ROUTES,
  SESSION_ONLY_ROUTES,
} from '../../supabase/functions/api/app.ts';
import {
  accessTokenVerifier,
  authIssuer,
  type AccessTokenVerifierOptions,
} from '../../supabase/functions/_shared/auth/access-token-verifier.ts';
import {
  AUTH_KEYS_CACHE_MAX_AGE_MS,
  AUTH_KEYS_COOLDOWN_MS,
  remoteAuthKeys,
} from '../../supabase/functions/_shared/auth/signing-keys.ts';
import { apiTokenVerifier } from '../../supabase/functions/_shared/auth/api-token-verifier.ts';
import { bearerCredentialVerifier } from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import { createTestApp, useTestApp, WEB_ORIGIN } from '../support/api-app.ts';
import { useJwksServer } from '../support/jwks-server.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import { API_BASE_PATH, openApi, specOperations } from '../support/openapi.ts';
import {
  accessTokenClaims,
  createTestUser,
  endSession,
  signWithTestKey,
  TEST_AUTH_ISSUER,
  testAuthKeys,
  testPublicJwk,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();
const ME = '/api/v1/me';
const NO_CREDENTIALS = 'Bearer';
const REFUSED_CREDENTIALS = 'Bearer error="invalid_token"';

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser(api.db);
});

const now = () => Math.floor(Date.now() / 1000);
const asBearer = (token: string) => withBearer(token);
const withAuthorization = (authorization: string): RequestInit => ({
  headers: { Authorization: authorization },
});

function expectUnauthenticated(response: ApiResponse, challenge: string, detail: string | RegExp): void {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(challenge);
  const problem = problemOf(response);
  expect(problem.code).toBe('unauthenticated');
  expect(problem.detail).toMatch(detail);
}

describe('a secured route without a usable credential', () => {
  it('answers 401 with a bare Bearer challenge when there is no Authorization header', async () => {
    const response = await callApi(api.app, ME);
    expectUnauthenticated(
      response,
      NO_CREDENTIALS,
      'Sign in first: send `Authorization: Bearer <access token>`.',
    );
  });

  it('lets an allowed browser origin read the 401, so the web app can show its detail', async () => {
    const response = await callApi(api.app, ME, { headers: { Origin: WEB_ORIGIN } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
  });

  it('answers 401 to another scheme, without echoing the header', async () => {
    const response = await callApi(api.app, ME, withAuthorization('Basic YWRhOmh1bnRlcjI='));
    expectUnauthenticated(response, NO_CREDENTIALS, /must use the Bearer scheme/);
    expect(response.text).not.toContain('YWRhOmh1bnRlcjI=');
  });

  it.each([
    ['an empty bearer', 'Bearer'],
    ['two tokens', 'Bearer one two'],
    ['characters no token has', 'Bearer {"sub":1}'],
  ])('answers 401 invalid_token to %s', async (_name, authorization) => {
    const response = await callApi(api.app, ME, withAuthorization(authorization));
    expectUnauthenticated(
      response,
      REFUSED_CREDENTIALS,
      'The Authorization header holds no well-formed bearer token.',
    );
  });

  it('answers 401 to a token that is not a JWT', async () => {
    const response = await callApi(api.app, ME, asBearer('not-a-jwt'));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, 'The bearer token is not a well-formed JWT.');
  });

  it('answers 401 to a token signed by another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await signWithTestKey(accessTokenClaims(user), privateKey);
    const response = await callApi(api.app, ME, asBearer(forged));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /signature does not verify/);
  });

  it('answers 401 to a token whose payload was changed after signing (here, to claim aal2)', async () => {
    const [header, , signature] = user.accessToken.split('.');
    const raised = Buffer.from(JSON.stringify(accessTokenClaims(user, 'aal2'))).toString('base64url');
    const response = await callApi(api.app, ME, asBearer(`${header}.${raised}.${signature}`));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /signature does not verify/);
  });

  it('answers 401 to an expired token', async () => {
    const expired = await signWithTestKey({
      ...accessTokenClaims(user),
      exp: now() - 120,
      iat: now() - 3720,
    });
    const response = await callApi(api.app, ME, asBearer(expired));
    expectUnauthenticated(
      response,
      REFUSED_CREDENTIALS,
      'The access token has expired. Refresh the session and try again.',
    );
  });

  it.each([
    ['a wrong audience', { aud: 'service' }, '"aud"'],
    ['a wrong issuer', { iss: 'https://evil.example/auth/v1' }, '"iss"'],
  ])('answers 401 to a token with %s', async (_name, claims, claim) => {
    const token = await signWithTestKey({ ...accessTokenClaims(user), ...claims });
    const response = await callApi(api.app, ME, asBearer(token));
    expectUnauthenticated(
      response,
      REFUSED_CREDENTIALS,
      `The access token's ${claim} claim is not accepted.`,
    );
  });

  it('answers 401 to a token without an expiry', async () => {
    const { exp: _exp, ...claims } = accessTokenClaims(user);
    const response = await callApi(api.app, ME, asBearer(await signWithTestKey(claims)));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, `The access token's "exp" claim is missing.`);
  });

  it('answers 401 to an HS256 token, even with valid claims', async () => {
    const token = await signHs256(accessTokenClaims(user));
    const response = await callApi(api.app, ME, asBearer(token));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /not signed with ES256/);
  });

  it('answers 401 to the anon and service_role API keys (HS256 JWTs, as the stand-in makes them)', async () => {
    for (const role of ['anon', 'service_role']) {
      const apiKey = await signHs256({ role, iss: 'supabase-demo', iat: now(), exp: now() + 3600 });
      const response = await callApi(api.app, ME, asBearer(apiKey));
      expectUnauthenticated(response, REFUSED_CREDENTIALS, /not signed with ES256/);
    }
  });

  it.each(['anon', 'service_role'])(
    'answers 401 to a validly signed token whose role is %s',
    async (role) => {
      const token = await signWithTestKey({ ...accessTokenClaims(user), role });
      const response = await callApi(api.app, ME, asBearer(token));
      expectUnauthenticated(
        response,
        REFUSED_CREDENTIALS,
        `The token's role is "${role}": only a signed-in user's access token (role "authenticated") is accepted.`,
      );
    },
  );

  it('answers 401 to a token without a session', async () => {
    const { session_id: _sessionId, ...claims } = accessTokenClaims(user);
    const response = await callApi(api.app, ME, asBearer(await signWithTestKey(claims)));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /lacks the claims of a sign-in session/);
  });

  it('answers 401 once the session is deleted (signed out), though the token has not expired', async () => {
    const leaving = await createTestUser(api.db);
    expect((await callApi(api.app, ME, asBearer(leaving.accessToken))).status).toBe(200);
    await endSession(api.db, leaving.sessionId);
    const response = await callApi(api.app, ME, asBearer(leaving.accessToken));
    expectUnauthenticated(
      response,
      REFUSED_CREDENTIALS,
      'The session has ended (signed out or timed out). Sign in again.',
    );
  });

  it('answers 401 once the session is past its not_after (timed out)', async () => {
    const timedOut = await createTestUser(api.db);
    await asService(api.db, (sql) =>
      sql.query(`update auth.sessions set not_after = now() - interval '1 second' where id = $1`, [
        timedOut.sessionId,
      ]),
    );
    const response = await callApi(api.app, ME, asBearer(timedOut.accessToken));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /The session has ended/);
  });

  it("answers 401 to a token naming another user's session", async () => {
    const other = await createTestUser(api.db);
    const token = await signWithTestKey({ ...accessTokenClaims(user), session_id: other.sessionId });
    const response = await callApi(api.app, ME, asBearer(token));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /The session has ended/);
  });

  it('answers 401 to an API token of the wrong shape, without looking it up', async () => {
    const response = await callApi(api.app, ME, asBearer('tl_pat_0123456789abcdef'));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /The API token is malformed/);
  });

  it('answers 401 to a well-formed API token that no one created', async () => {
    const response = await callApi(api.app, ME, asBearer(`tl_pat_${'a'.repeat(43)}`));
    expectUnauthenticated(response, REFUSED_CREDENTIALS, /The API token is not recognised/);
  });

  it('never writes the token to the log, and logs no user for a refused request', async () => {
    const forged = await signWithTestKey({ ...accessTokenClaims(user), aud: 'service' });
    const response = await callApi(api.app, ME, asBearer(forged));
    const [line] = api.logs.forRequest(problemOf(response).request_id);
    expect(line).toMatchObject({ msg: 'request', status: 401 });
    expect(line).not.toHaveProperty('user_id');
    expect(JSON.stringify(api.logs.entries)).not.toContain(forged.split('.')[2]);
  });
});

describe('a valid access token', () => {
  it('is accepted, and the request log names the user', async () => {
    const response = await callApi(api.app, ME, {
      ...asBearer(user.accessToken),
      headers: { Authorization: `Bearer ${user.accessToken}`, 'X-Request-Id': 'authenticated-request' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id });
    expect(api.logs.forRequest('authenticated-request')).toEqual([
      expect.objectContaining({ msg: 'request', status: 200, user_id: user.id }),
    ]);
    expect(JSON.stringify(api.logs.entries)).not.toContain(user.accessToken.split('.')[2]);
  });

  it('is accepted with a lower-case scheme', async () => {
    const response = await callApi(api.app, ME, withAuthorization(`bearer ${user.accessToken}`));
    expect(response.status).toBe(200);
  });

  it('is accepted within the clock tolerance after its expiry', async () => {
    const justExpired = await signWithTestKey({ ...accessTokenClaims(user), exp: now() - 5 });
    expect((await callApi(api.app, ME, asBearer(justExpired))).status).toBe(200);
  });
});

describe('the signing keys', () => {
  const jwks = useJwksServer([testPublicJwk]);
  const { requestedPaths } = jwks;
  afterEach(() => {
    vi.useRealTimers();
    jwks.keys = [testPublicJwk];
    requestedPaths.length = 0;
  });

  /** The app as index.ts builds it, on these signing keys; by default the JWKS that `jwks` serves. */
  const appOnKeys = (
    keys: AccessTokenVerifierOptions['keys'] = remoteAuthKeys(jwks.url),
    issuer: string = authIssuer(jwks.url),
  ) =>
    createTestApp(api.databaseUrl, {
      credentials: (db) =>
        bearerCredentialVerifier({
          accessTokens: accessTokenVerifier({ keys, issuer, db }),
          apiTokens: apiTokenVerifier({ db }),
        }),
    });

  it('are fetched again once the cached JWKS is older than its max age: a removed key stops verifying', async () => {
    // Only Date is faked (jose dates its JWKS with Date.now); timers and I/O stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    const startMs = Date.now();
    vi.setSystemTime(startMs);
    const rotated = await generateKeyPair('ES256');
    const rotatedJwk = { ...(await exportJWK(rotated.publicKey)), kid: 'rotated-key', alg: 'ES256' };
    const claims = () => ({ ...accessTokenClaims(user), iss: `${jwks.url}/auth/v1`, iat: now() });
    /** A token no earlier request used, so the verified-token cache cannot answer for it. */
    let issued = 0;
    const freshToken = () => signWithTestKey({ ...claims(), jti: `token-${(issued += 1)}` });
    const remote = appOnKeys();
    try {
      expect((await callApi(remote.app, ME, asBearer(await freshToken()))).status).toBe(200);
      // The project rotates: the old key leaves the JWKS, a new one signs.
      jwks.keys = [rotatedJwk];
      vi.setSystemTime(startMs + AUTH_KEYS_CACHE_MAX_AGE_MS - 1000);
      expect((await callApi(remote.app, ME, asBearer(await freshToken()))).status).toBe(200);
      expect(requestedPaths).toHaveLength(1);

      vi.setSystemTime(startMs + AUTH_KEYS_CACHE_MAX_AGE_MS + 1);
      const response = await callApi(remote.app, ME, asBearer(await freshToken()));
      expectUnauthenticated(response, REFUSED_CREDENTIALS, /signature does not verify/);
      expect(requestedPaths).toHaveLength(2);
      const signedWithNewKey = await new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', kid: 'rotated-key', typ: 'JWT' })
        .sign(rotated.privateKey);
      expect((await callApi(remote.app, ME, asBearer(signedWithNewKey))).status).toBe(200);
    } finally {
      await remote.close();
    }
  });

  it('are fetched again for an unknown kid, but not more often than the cooldown', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const startMs = Date.now();
    vi.setSystemTime(startMs);
    const added = await generateKeyPair('ES256');
    const addedJwk = { ...(await exportJWK(added.publicKey)), kid: 'added-key', alg: 'ES256' };
    const remote = appOnKeys();
    try {
      const iss = `${jwks.url}/auth/v1`;
      const oldKeyToken = await signWithTestKey({ ...accessTokenClaims(user), iss });
      expect((await callApi(remote.app, ME, asBearer(oldKeyToken))).status).toBe(200);
      jwks.keys = [testPublicJwk, addedJwk];
      const signedWithAddedKey = await new SignJWT({ ...accessTokenClaims(user), iss })
        .setProtectedHeader({ alg: 'ES256', kid: 'added-key', typ: 'JWT' })
        .sign(added.privateKey);
      expect((await callApi(remote.app, ME, asBearer(signedWithAddedKey))).status).toBe(401);
      expect(requestedPaths).toHaveLength(1);
      vi.setSystemTime(startMs + AUTH_KEYS_COOLDOWN_MS + 1);
      expect((await callApi(remote.app, ME, asBearer(signedWithAddedKey))).status).toBe(200);
      expect(requestedPaths).toHaveLength(2);
    } finally {
      await remote.close();
    }
  });

  it("are fetched from the project's JWKS at ${SUPABASE_URL}/auth/v1/.well-known/jwks.json, once", async () => {
    const remote = appOnKeys();
    try {
      const token = await signWithTestKey({ ...accessTokenClaims(user), iss: `${jwks.url}/auth/v1` });
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await callApi(remote.app, ME, asBearer(token))).status).toBe(200);
      }
      expect(requestedPaths).toEqual(['/auth/v1/.well-known/jwks.json']);
    } finally {
      await remote.close();
    }
  });

  it('answer 503 unavailable with Retry-After when they cannot be fetched, and the cause is logged', async () => {
    const unreachable = appOnKeys(
      () => Promise.reject(new TypeError('fetch failed')),
      authIssuer('http://127.0.0.1:54321'),
    );
    try {
      const response = await callApi(unreachable.app, ME, asBearer(user.accessToken));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const problem = problemOf(response);
      expect(problem).toMatchObject({ code: 'unavailable' });
      expect(unreachable.logs.forRequest(problem.request_id)).toContainEqual(
        expect.objectContaining({ level: 'warn', msg: 'unavailable', error_message: 'fetch failed' }),
      );
    } finally {
      await unreachable.close();
    }
  });
});

describe('a verified access token', () => {
  /** An app whose verifier counts how often it asks for a key: once per signature it verifies. */
  function appCountingKeyLookups() {
    const lookups: string[] = [];
    const counting = createTestApp(api.databaseUrl, {
      credentials: (db) =>
        bearerCredentialVerifier({
          accessTokens: accessTokenVerifier({
            keys: (header, token) => {
              lookups.push(header.kid ?? '');
              return testAuthKeys(header, token);
            },
            issuer: TEST_AUTH_ISSUER,
            db,
          }),
          apiTokens: apiTokenVerifier({ db }),
        }),
    });
    return { counting, lookups };
  }

  it('is not verified again on its next requests, but a different token is', async () => {
    const { counting, lookups } = appCountingKeyLookups();
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await callApi(counting.app, ME, asBearer(user.accessToken))).status).toBe(200);
      }
      expect(lookups).toHaveLength(1);
      const other = await signWithTestKey({ ...accessTokenClaims(user), iat: now() - 1 });
      expect((await callApi(counting.app, ME, asBearer(other))).status).toBe(200);
      expect(lookups).toHaveLength(2);
    } finally {
      await counting.close();
    }
  });

  it('is refused once its session ends, though its signature is remembered', async () => {
    const { counting, lookups } = appCountingKeyLookups();
    const leaving = await createTestUser(api.db);
    try {
      expect((await callApi(counting.app, ME, asBearer(leaving.accessToken))).status).toBe(200);
      await endSession(api.db, leaving.sessionId);
      const response = await callApi(counting.app, ME, asBearer(leaving.accessToken));
      expectUnauthenticated(response, REFUSED_CREDENTIALS, /The session has ended/);
      expect(lookups).toHaveLength(1);
    } finally {
      await counting.close();
    }
  });

  it('that failed verification is verified again each time, never remembered', async () => {
    const { counting, lookups } = appCountingKeyLookups();
    const wrongAudience = await signWithTestKey({ ...accessTokenClaims(user), aud: 'someone-else' });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await callApi(counting.app, ME, asBearer(wrongAudience));
        expectUnauthenticated(response, REFUSED_CREDENTIALS, /"aud" claim is not accepted/);
      }
      expect(lookups).toHaveLength(2);
    } finally {
      await counting.close();
    }
  });
});

describe('which routes need credentials', () => {
  const operations = specOperations().map(({ method, path }) => {
    const security = openApi.paths[path]?.[method]?.security;
    return {
      method,
      path,
      isPublic: security?.length === 0,
      // `{}` among the alternatives: the operation may also be called with no credentials at all.
      isOptional: security?.some((scheme) => Object.keys(scheme).length === 0) ?? false,
      isSessionOnly:
        security !== undefined && !security.some((scheme) => 'apiToken' in scheme || 'secretKey' in scheme),
      isService: security?.some((scheme) => 'secretKey' in scheme) ?? false,
    };
  });
  const routeName = ({ method, path }: { method: string; path: string }) =>
    `${method.toUpperCase()} ${API_BASE_PATH}${path.replace(/\{(\w+)\}/g, ':$1')}`;

  it('the spec marks public exactly the routes the app lets through without credentials', () => {
    const documentedPublic = operations.filter((operation) => operation.isPublic).map(routeName);
    expect(documentedPublic.sort()).toEqual([...PUBLIC_ROUTES].sort());
    expect(openApi.security).toEqual([{ accessToken: [] }, { apiToken: [] }]);
  });

  it('the spec marks credentials optional on exactly the routes the app lets through without any', () => {
    const documentedOptional = operations.filter((operation) => operation.isOptional).map(routeName);
    expect(documentedOptional.sort()).toEqual([...OPTIONAL_CREDENTIAL_ROUTES].sort());
  });

  it('the spec refuses API tokens on exactly the routes the app keeps for sessions', () => {
    const documentedSessionOnly = operations
      .filter((operation) => operation.isSessionOnly && !operation.isPublic)
      .map(routeName);
    expect(documentedSessionOnly.sort()).toEqual([...SESSION_ONLY_ROUTES].sort());
  });

  it('the spec asks for the secret key on exactly the routes the app keeps for the scheduler', () => {
    const documentedService = operations.filter((operation) => operation.isService).map(routeName);
    expect(documentedService.sort()).toEqual([...SERVICE_ROUTES].sort());
  });

  // A public route with a parameter (an unsubscribe link's token) is called so in its own tests.
  it.each(
    PUBLIC_ROUTES.filter((route) => !route.includes(':')).map(
      (route) => route.split(' ') as [string, string],
    ),
  )('%s %s answers without credentials, and ignores a bad one', async (method, path) => {
    expect((await callApi(api.app, path, { method })).status).toBe(200);
    expect((await callApi(api.app, path, { method, ...asBearer('garbage') })).status).toBe(200);
  });

  it('every other operation in the spec answers 401 without credentials, before reading any body', async () => {
    const secured = operations.filter((operation) => !operation.isPublic && !operation.isOptional);
    expect(secured.length).toBeGreaterThan(0);
    for (const [index, { method, path }] of secured.entries()) {
      const concrete = `${API_BASE_PATH}${path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000')}`;
      const response = await callApi(api.app, concrete, {
        method: method.toUpperCase(),
        // One client address per call: there are more operations than the per-IP limit allows a minute.
        headers: { 'Content-Type': 'text/plain', 'X-Forwarded-For': `198.51.100.${index % 250}` },
        ...(method === 'get' || method === 'head' ? {} : { body: 'not json' }),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(NO_CREDENTIALS);
    }
  });

  it('an unknown path answers 404 without credentials, as no route would take it anyway', async () => {
    const response = await callApi(api.app, '/api/v1/nope');
    expect(response.status).toBe(404);
  });
});

function signHs256(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters'));
}
