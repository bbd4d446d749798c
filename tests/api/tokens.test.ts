import { createHash, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Sql } from '../../supabase/functions/_shared/db.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { useTestApp } from '../support/api-app.ts';
import { ME, meCalls, TOKENS, type CreateApiToken } from '../support/me-calls.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import {
  callApi,
  callTestRoute,
  expectProblem,
  problemOf,
  type ApiResponse,
} from '../support/api-request.ts';
import {
  accessTokenClaims,
  createTestUser,
  insertMfaFactor,
  signWithTestKey,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

type NewApiToken = components['schemas']['NewApiToken'];

/** Routes for every method, so a read token can be tried on writes that no real route offers yet. */
const probeRoutes = new Hono<AppEnv>()
  .get('/scope-probe', (c) => c.json({ ok: true }))
  .post('/scope-probe', (c) => c.json({ ok: true }))
  .put('/scope-probe', (c) => c.json({ ok: true }))
  .patch('/scope-probe', (c) => c.json({ ok: true }))
  .delete('/scope-probe', (c) => c.json({ ok: true }));

const api = useTestApp({ extraRoutes: probeRoutes });
const DAY_MS = 24 * 60 * 60 * 1000;
const SECRET = /^tl_pat_[0-9A-Za-z]{43}$/;
const REFUSED_CREDENTIALS = 'Bearer error="invalid_token"';

const me = () => meCalls(api.app);
const postToken = (bearer: string, body: CreateApiToken = { name: 'CI', scope: 'write' }) =>
  me().createToken(bearer, body);

async function createToken(user: TestUser, body?: CreateApiToken): Promise<NewApiToken> {
  const response = await postToken(user.accessToken, body);
  expect(response.status).toBe(201);
  return response.body;
}

const aal2TokenOf = (user: TestUser) => signWithTestKey(accessTokenClaims(user, 'aal2'));

interface StoredTokenRow extends Record<string, unknown> {
  id: string;
  token_hash: Buffer;
  revoked_at: Date | null;
  last_used_at: Date | null;
  version: number;
  updated_at: Date;
}

async function storedToken(id: string): Promise<StoredTokenRow | undefined> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<StoredTokenRow>('select * from public.api_tokens where id = $1', [id]),
  );
  return row;
}

async function tokenCount(userId: string): Promise<number> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ count: number }>(
      'select count(*)::integer as count from public.api_tokens where user_id = $1',
      [userId],
    ),
  );
  return row?.count ?? -1;
}

const insertVerifiedFactor = (userId: string, status: 'verified' | 'unverified' = 'verified') =>
  insertMfaFactor(api.db, userId, { status });

/** Rows as if the user had created tokens earlier: `createdMinutesAgo` each, all revoked. */
async function insertPastCreations(userId: string, createdMinutesAgo: readonly number[]): Promise<void> {
  for (const minutes of createdMinutesAgo) {
    await asService(api.db, (sql) =>
      sql.query(
        `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, created_at, expires_at, revoked_at)
         values ($1, 'old', 'tl_pat_AAAA', sha256(gen_random_uuid()::text::bytea),
           'read', now() - make_interval(mins => $2), now() + interval '1 day', now())`,
        [userId, minutes],
      ),
    );
  }
}

/** Moves a token's life into the past: created `createdDaysAgo`, expired `expiredDaysAgo`. */
async function backdate(id: string, createdDaysAgo: number, expiredDaysAgo: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `update public.api_tokens
       set created_at = now() - make_interval(days => $2), expires_at = now() - make_interval(days => $3)
       where id = $1`,
      [id, createdDaysAgo, expiredDaysAgo],
    ),
  );
}

function expectUnauthenticated(response: ApiResponse, detail: string | RegExp): void {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(REFUSED_CREDENTIALS);
  const problem = problemOf(response);
  expect(problem.code).toBe('unauthenticated');
  expect(problem.detail).toMatch(detail);
}

let ada: TestUser;
let grace: TestUser;
beforeAll(async () => {
  ada = await createTestUser(api.db, { email: 'ada@example.com' });
  grace = await createTestUser(api.db, { email: 'grace@example.com' });
});

describe('POST /api/v1/me/tokens', () => {
  it('creates a token and answers its secret once, with the token and a Location', async () => {
    const user = await createTestUser(api.db);
    const response = await postToken(user.accessToken, { name: '  Nightly CI  ', scope: 'write' });
    expect(response.status).toBe(201);
    const token = response.body;
    expect(token).toEqual({
      object: 'api_token',
      id: expect.any(String),
      name: 'Nightly CI',
      prefix: token.token.slice(0, 11),
      scope: 'write',
      status: 'active',
      expires_at: expect.stringMatching(ISO_TIMESTAMP),
      last_used_at: null,
      revoked_at: null,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: token.created_at,
      token: expect.stringMatching(SECRET),
    });
    expect(token.prefix).toMatch(/^tl_pat_[0-9A-Za-z]{4}$/);
    expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(90 * DAY_MS);
    expect(response.headers.get('location')).toBe(`tokens/${token.id}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location') ?? '', `http://api.test${TOKENS}`);
    expect((await me().getToken(user.accessToken, token.id)).body).toMatchObject({ id: token.id });
    expect(location.pathname).toBe(`${TOKENS}/${token.id}`);
  });

  it.each([1, 365])('takes a lifetime of %i days', async (days) => {
    const user = await createTestUser(api.db);
    const token = await createToken(user, { name: 'Short', scope: 'read', expires_in_days: days });
    expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(days * DAY_MS);
    expect(token.scope).toBe('read');
  });

  it('never records the secret for an Idempotency-Key: a retry makes a new token', async () => {
    const user = await createTestUser(api.db);
    const post = () =>
      me().createToken(user.accessToken, { name: 'CI', scope: 'write' }, { 'Idempotency-Key': 'token-once' });
    const first = await post();
    const second = await post();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const secrets = [first.body, second.body].map((body) => body.token);
    expect(new Set(secrets).size).toBe(2);
    const stored = await asService(api.db, (sql) =>
      sql.query<{ count: number }>(
        `select count(*)::integer as count from public.idempotency_keys
         where response::text like '%' || $1 || '%' or response::text like '%' || $2 || '%'`,
        secrets,
      ),
    );
    expect(stored).toEqual([{ count: 0 }]);
    expect(await tokenCount(user.id)).toBe(2);
  });

  it('makes a different secret every time', async () => {
    const user = await createTestUser(api.db);
    const secrets = new Set<string>();
    for (let index = 0; index < 5; index += 1) secrets.add((await createToken(user)).token);
    expect(secrets.size).toBe(5);
  });

  it('stores only the SHA-256 of the secret, never the secret', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    const row = await storedToken(token.id);
    expect(row?.token_hash.toString('hex')).toBe(createHash('sha256').update(token.token).digest('hex'));
    const [dump] = await asService(api.db, (sql) =>
      sql.query<{ row: string }>(
        'select row_to_json(t)::text as row from public.api_tokens t where id = $1',
        [token.id],
      ),
    );
    expect(dump?.row).not.toContain(token.token.slice(7));
  });

  it('never writes the secret to the log', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    expect((await me().get(token.token)).status).toBe(200);
    expect(JSON.stringify(api.logs.entries)).not.toContain(token.token.slice(7));
  });

  it.each([
    ['no name', { scope: 'write' }, 'body.name', 'required'],
    ['an empty name', { name: '', scope: 'write' }, 'body.name', 'too_short'],
    ['a blank name', { name: '   ', scope: 'write' }, 'body.name', 'too_short'],
    ['an 81-character name', { name: 'x'.repeat(81), scope: 'write' }, 'body.name', 'too_long'],
    ['no scope', { name: 'CI' }, 'body.scope', 'required'],
    ['an unknown scope', { name: 'CI', scope: 'admin' }, 'body.scope', 'invalid_value'],
    [
      'a lifetime of 0 days',
      { name: 'CI', scope: 'read', expires_in_days: 0 },
      'body.expires_in_days',
      'too_small',
    ],
    [
      'a lifetime of 366 days',
      { name: 'CI', scope: 'read', expires_in_days: 366 },
      'body.expires_in_days',
      'too_large',
    ],
    [
      'a fractional lifetime',
      { name: 'CI', scope: 'read', expires_in_days: 1.5 },
      'body.expires_in_days',
      'invalid_type',
    ],
    [
      'a lifetime as a string',
      { name: 'CI', scope: 'read', expires_in_days: '30' },
      'body.expires_in_days',
      'invalid_type',
    ],
    [
      'a secret of its own',
      { name: 'CI', scope: 'read', token: 'tl_pat_mine' },
      'body.token',
      'unknown_field',
    ],
    ['another user', { name: 'CI', scope: 'read', user_id: randomUUID() }, 'body.user_id', 'unknown_field'],
  ])('answers 422 to %s, and creates nothing', async (_name, body, path, code) => {
    const user = await createTestUser(api.db);
    const response = await me().raw.tokens.create(user.accessToken, body);
    expectProblem(response, 422, 'validation_failed');
    expect(problemOf(response).errors?.map((error) => ({ path: error.path, code: error.code }))).toEqual([
      { path, code },
    ]);
    expect(await tokenCount(user.id)).toBe(0);
  });

  it('answers 400 to malformed JSON and 415 to a body that is not JSON', async () => {
    const send = (body: string, contentType: string) =>
      callApi(
        api.app,
        TOKENS,
        withBearer(ada.accessToken, { method: 'POST', headers: { 'Content-Type': contentType }, body }),
      );
    expectProblem(await send('{"name":', 'application/json'), 400, 'bad_request');
    expectProblem(await send('name=CI', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
  });

  it('answers 400 to a query parameter it does not define', async () => {
    const response = await callApi(
      api.app,
      `${TOKENS}?scope=admin`,
      withBearer(ada.accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'CI', scope: 'read' }),
      }),
    );
    expectProblem(response, 400, 'bad_request');
  });

  it('allows 10 active tokens; the 11th is 409 limit_reached until one is revoked', async () => {
    const user = await createTestUser(api.db);
    const tokens: NewApiToken[] = [];
    for (let index = 0; index < 10; index += 1) tokens.push(await createToken(user));
    const refused = await postToken(user.accessToken);
    expectProblem(refused, 409, 'limit_reached');
    expect(problemOf(refused).detail).toMatch(/10 active API tokens.*api_tokens_per_user/);
    expect(await tokenCount(user.id)).toBe(10);

    expect((await me().revokeToken(user.accessToken, tokens[0]?.id ?? '')).status).toBe(200);
    expect((await postToken(user.accessToken)).status).toBe(201);
  });

  it('does not count expired tokens towards the 10', async () => {
    const user = await createTestUser(api.db);
    for (let index = 0; index < 10; index += 1) await backdate((await createToken(user)).id, 3, 1);
    expect((await postToken(user.accessToken)).status).toBe(201);
  });

  it('holds the limit when many creations race', async () => {
    const user = await createTestUser(api.db);
    const responses = await Promise.all(Array.from({ length: 13 }, () => postToken(user.accessToken)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(201), 409, 409, 409]);
    expect(await tokenCount(user.id)).toBe(10);
  });

  it('allows 20 creations an hour, revoked tokens included; then 429 with Retry-After', async () => {
    const user = await createTestUser(api.db);
    await insertPastCreations(user.id, [61, 90]);
    await insertPastCreations(user.id, [50, ...Array<number>(18).fill(5)]);
    expect((await postToken(user.accessToken)).status).toBe(201);

    const refused = await postToken(user.accessToken);
    expectProblem(refused, 429, 'rate_limited');
    expect(problemOf(refused).detail).toMatch(/20 API tokens in the last hour.*sensitive_creations_per_hour/);
    // The oldest creation in the window, 50 minutes ago, leaves it in 10 minutes.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await tokenCount(user.id)).toBe(22);
  });

  it('needs an aal2 session from a person with a verified factor (403 mfa_required)', async () => {
    const user = await createTestUser(api.db);
    await insertVerifiedFactor(user.id);
    const refused = await postToken(user.accessToken);
    expectProblem(refused, 403, 'mfa_required');
    expect(await tokenCount(user.id)).toBe(0);

    const response = await postToken(await aal2TokenOf(user));
    expect(response.status).toBe(201);
    expect(await tokenCount(user.id)).toBe(1);
  });

  it('does not ask for aal2 when the only factor is unverified', async () => {
    const user = await createTestUser(api.db);
    await insertVerifiedFactor(user.id, 'unverified');
    expect((await postToken(user.accessToken)).status).toBe(201);
  });
});

describe('GET /api/v1/me/tokens', () => {
  it("lists the caller's tokens newest first, without secrets", async () => {
    const user = await createTestUser(api.db);
    const first = await createToken(user, { name: 'First', scope: 'read' });
    const second = await createToken(user, { name: 'Second', scope: 'write' });
    await createToken(grace);
    const response = await me().listTokens(user.accessToken);
    expect(response.status).toBe(200);
    const list = response.body;
    expect(list).toMatchObject({ object: 'list', next_cursor: null });
    expect(list.data.map((token) => token.id)).toEqual([second.id, first.id]);
    const { token: _secret, ...withoutSecret } = first;
    expect(list.data[1]).toEqual(withoutSecret);
    expect(response.text).not.toContain(first.token);
    expect(response.text).not.toContain(second.token);
  });

  it('shows revoked and expired tokens for 30 days, then no longer', async () => {
    const user = await createTestUser(api.db);
    const revoked = await createToken(user, { name: 'Revoked', scope: 'read' });
    await me().revokeToken(user.accessToken, revoked.id);
    const expired = await createToken(user, { name: 'Expired', scope: 'read' });
    await backdate(expired.id, 40, 29);
    const forgotten = await createToken(user, { name: 'Long expired', scope: 'read' });
    await backdate(forgotten.id, 60, 31);

    const list = (await me().listTokens(user.accessToken)).body;
    expect(list.data.map(({ name, status }) => ({ name, status }))).toEqual([
      { name: 'Revoked', status: 'revoked' },
      { name: 'Expired', status: 'expired' },
    ]);
  });

  it('pages newest first, following next_cursor and Link', async () => {
    const user = await createTestUser(api.db);
    for (const name of ['First', 'Second', 'Third']) await createToken(user, { name, scope: 'read' });
    const first = await me().listTokens(user.accessToken, '?limit=2');
    const firstPage = first.body;
    expect(firstPage.data.map((token) => token.name)).toEqual(['Third', 'Second']);
    expect(first.headers.get('Link')).toBe(`<?limit=2&cursor=${firstPage.next_cursor}>; rel="next"`);
    const second = await me().listTokens(user.accessToken, `?limit=2&cursor=${firstPage.next_cursor}`);
    expect(second.body).toMatchObject({ data: [{ name: 'First' }], next_cursor: null });
    expectProblem(
      await callApi(api.app, `${TOKENS}?limit=0`, withBearer(user.accessToken)),
      400,
      'bad_request',
    );
  });

  it('answers an empty list to a person without tokens', async () => {
    const user = await createTestUser(api.db);
    expect((await me().listTokens(user.accessToken)).body).toEqual({
      object: 'list',
      data: [],
      next_cursor: null,
    });
  });
});

describe('GET /api/v1/me/tokens/{id}', () => {
  it('answers the token without its secret', async () => {
    const token = await createToken(ada, { name: 'One', scope: 'read' });
    const response = await me().getToken(ada.accessToken, token.id);
    expect(response.status).toBe(200);
    const { token: secret, ...withoutSecret } = token;
    expect(response.body).toEqual(withoutSecret);
    expect(response.text).not.toContain(secret);
  });

  it.each([
    ["someone else's token", async () => (await createToken(grace)).id],
    ['an id no token has', () => Promise.resolve(randomUUID())],
    ['an id that is not a UUID', () => Promise.resolve('not-a-uuid')],
  ])('answers 404 to %s', async (_name, idOf) => {
    expectProblem(await me().getToken(ada.accessToken, await idOf()), 404, 'not_found');
  });
});

describe('ETag on tokens', () => {
  it('answers a token with its ETag, and 304 when If-None-Match names it', async () => {
    const user = await createTestUser(api.db);
    const created = await postToken(user.accessToken);
    expect(created.headers.get('ETag')).toBe('"1"');
    const id = created.body.id;
    expect((await me().getToken(user.accessToken, id)).headers.get('ETag')).toBe('"1"');
    const cached = await me().getToken(user.accessToken, id, { 'If-None-Match': '"1"' });
    expect(cached.status).toBe(304);
  });
});

describe('DELETE /api/v1/me/tokens/{id}', () => {
  it('revokes the token: it answers it revoked, and the token is 401 from then on', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    expect((await me().get(token.token)).status).toBe(200);

    const response = await me().revokeToken(user.accessToken, token.id);
    expect(response.status).toBe(200);
    const revoked = response.body;
    expect(revoked).toMatchObject({ id: token.id, status: 'revoked', version: 2 });
    expect(revoked.revoked_at).toMatch(ISO_TIMESTAMP);
    expect(Date.parse(revoked.updated_at)).toBeGreaterThan(Date.parse(token.updated_at));
    expect((await storedToken(token.id))?.revoked_at).toBeInstanceOf(Date);

    expectUnauthenticated(await me().get(token.token), 'The API token has been revoked. Create a new one.');
  });

  it('honours If-Match: a stale version is 412 and the token keeps working', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    const problem = expectProblem(
      await me().revokeToken(user.accessToken, token.id, { 'If-Match': '"2"' }),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(1);
    expect((await storedToken(token.id))?.revoked_at).toBeNull();
    const response = await me().revokeToken(user.accessToken, token.id, { 'If-Match': '"1"' });
    expect(response.status).toBe(200);
    expect(response.headers.get('ETag')).toBe('"2"');
    expectProblem(
      await me().revokeToken(user.accessToken, token.id, { 'If-Match': '"1"' }),
      412,
      'precondition_failed',
    );
  });

  it('answers a revoked token as it is when revoked again', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    const first = await me().revokeToken(user.accessToken, token.id);
    const second = await me().revokeToken(user.accessToken, token.id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it("answers 404 to someone else's token, which keeps working", async () => {
    const theirs = await createToken(grace);
    expectProblem(await me().revokeToken(ada.accessToken, theirs.id), 404, 'not_found');
    expect((await storedToken(theirs.id))?.revoked_at).toBeNull();
    expect((await me().get(theirs.token)).status).toBe(200);
  });

  it('answers 404 to an unknown id and to one that is not a UUID', async () => {
    expectProblem(await me().revokeToken(ada.accessToken, randomUUID()), 404, 'not_found');
    expectProblem(await me().revokeToken(ada.accessToken, '42'), 404, 'not_found');
  });
});

describe('an API token as the credential', () => {
  it('acts as its user, and GET /v1/me says how the caller authenticated', async () => {
    const token = await createToken(ada, { name: 'Reader', scope: 'read' });
    const response = await me().get(token.token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: ada.id,
      email: 'ada@example.com',
      aal: 'aal1',
      credential: { type: 'api_token', api_token_id: token.id, scope: 'read' },
    });
    expect((await me().get(ada.accessToken)).body.credential).toEqual({
      type: 'session',
      api_token_id: null,
      scope: null,
    });
  });

  it('reports aal2 for a person with a verified factor, so workspaces requiring MFA accept it', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    expect((await me().get(token.token)).body.aal).toBe('aal1');
    await insertVerifiedFactor(user.id);
    expect((await me().get(token.token)).body.aal).toBe('aal2');
  });

  it('is 401 once expired', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    await backdate(token.id, 2, 1);
    expectUnauthenticated(
      await me().get(token.token),
      /^The API token expired at \S+Z\. Create a new one\.$/,
    );
  });

  it('is 401 once its user is banned or deleted', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    await asService(api.db, (sql) =>
      sql.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [user.id]),
    );
    expectUnauthenticated(await me().get(token.token), "The API token's user is banned.");
    await asService(api.db, (sql) => sql.query('delete from auth.users where id = $1', [user.id]));
    expect(await storedToken(token.id)).toBeUndefined();
    expectUnauthenticated(await me().get(token.token), /The API token is not recognised/);
  });

  it('is 401 when one character of the secret is changed', async () => {
    const token = await createToken(ada);
    const last = token.token.at(-1) === 'a' ? 'b' : 'a';
    expectUnauthenticated(await me().get(token.token.slice(0, -1) + last), /not recognised/);
  });

  it('records last_used_at, at most once a minute, without changing version or updated_at', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    expect((await storedToken(token.id))?.last_used_at).toBeNull();

    await me().get(token.token);
    const used = await storedToken(token.id);
    expect(used?.last_used_at).toBeInstanceOf(Date);
    expect(Date.now() - (used?.last_used_at?.getTime() ?? 0)).toBeLessThan(60_000);
    expect(used?.version).toBe(1);
    expect(used?.updated_at.toISOString()).toBe(token.updated_at);

    await me().get(token.token);
    expect((await storedToken(token.id))?.last_used_at).toEqual(used?.last_used_at);

    await asService(api.db, (sql) =>
      sql.query(`update public.api_tokens set last_used_at = now() - interval '2 minutes' where id = $1`, [
        token.id,
      ]),
    );
    await me().get(token.token);
    const later = await storedToken(token.id);
    expect(later?.last_used_at?.getTime()).toBeGreaterThan(used?.last_used_at?.getTime() ?? Infinity);

    const listed = (await me().getToken(user.accessToken, token.id)).body;
    expect(listed.last_used_at).toBe(later?.last_used_at?.toISOString());
  });
});

describe('scopes', () => {
  const probe = (bearer: string, method: string) =>
    callTestRoute(api.app, '/api/v1/scope-probe', withBearer(bearer, { method }));

  it('lets a read token call safe methods only: anything else is 403 insufficient_scope', async () => {
    const reader = await createToken(ada, { name: 'Reader', scope: 'read' });
    expect((await probe(reader.token, 'GET')).status).toBe(200);
    expect((await probe(reader.token, 'HEAD')).status).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await probe(reader.token, method);
      expect(response.status, method).toBe(403);
      expect(problemOf(response)).toMatchObject({
        code: 'insufficient_scope',
        detail: `This API token has the read scope, so it can only read (GET, HEAD); ${method} needs a token with the write scope.`,
      });
    }
  });

  it('lets a write token call every method', async () => {
    const writer = await createToken(ada, { name: 'Writer', scope: 'write' });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await probe(writer.token, method)).status, method).toBe(200);
    }
  });

  it('refuses PATCH /v1/me to a read token before reading its body, and allows it to a write token', async () => {
    const user = await createTestUser(api.db, { displayName: 'Before' });
    const reader = await createToken(user, { name: 'Reader', scope: 'read' });
    const writer = await createToken(user, { name: 'Writer', scope: 'write' });
    const patch = (bearer: string, body: string) =>
      callApi(
        api.app,
        ME,
        withBearer(bearer, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body }),
      );
    expectProblem(
      await patch(reader.token, JSON.stringify({ display_name: 'After' })),
      403,
      'insufficient_scope',
    );
    expectProblem(await patch(reader.token, '{"display_name":'), 403, 'insufficient_scope');
    expect((await me().get(user.accessToken)).body.display_name).toBe('Before');

    const response = await me().update(writer.token, { display_name: 'After' });
    expect(response.status).toBe(200);
    expect(response.body.display_name).toBe('After');
  });
});

describe('API tokens cannot manage API tokens', () => {
  it.each(['read', 'write'] as const)(
    'a %s token is 403 forbidden on every /v1/me/tokens route',
    async (scope) => {
      const user = await createTestUser(api.db);
      const credential = await createToken(user, { name: 'Integration', scope });
      const target = await createToken(user, { name: 'Target', scope: 'read' });
      const attempts = [
        await me().listTokens(credential.token),
        await postToken(credential.token),
        await me().getToken(credential.token, target.id),
        await me().revokeToken(credential.token, target.id),
        await me().revokeToken(credential.token, credential.id),
      ];
      for (const response of attempts) {
        expectProblem(response, 403, 'forbidden');
        expect(problemOf(response).detail).toBe(
          'API tokens cannot manage API tokens. Sign in to Tasklane to create, list or revoke them.',
        );
      }
      expect(await tokenCount(user.id)).toBe(2);
      expect((await storedToken(target.id))?.revoked_at).toBeNull();
      expect((await storedToken(credential.id))?.revoked_at).toBeNull();
    },
  );
});

describe('row-level security on api_tokens, straight in SQL', () => {
  const sessionOf = (user: TestUser, aal: 'aal1' | 'aal2' = 'aal1'): Principal => ({
    ...user.principal,
    aal,
  });
  const apiTokenOf = (user: TestUser, id: string): Principal => ({
    user_id: user.id,
    email: user.email,
    aal: 'aal2',
    session_id: null,
    api_token: { id, scope: 'write' },
  });
  const as = <T>(principal: Principal, work: (sql: Sql) => Promise<T>) => api.db.asCaller(principal, work);
  const insertAs = (principal: Principal, userId = principal.user_id) =>
    as(principal, (sql) =>
      sql.query(
        `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
         values ($1, 'direct', 'tl_pat_AAAA', sha256(gen_random_uuid()::text::bytea), 'write', now() + interval '1 day')
         returning id`,
        [userId],
      ),
    );

  it('shows people their own tokens only, and never a hash', async () => {
    const theirs = await createToken(grace);
    const mine = await createToken(ada);
    const visible = await as(sessionOf(ada), (sql) =>
      sql.query<{ id: string }>('select id from public.api_tokens'),
    );
    expect(visible.map((row) => row.id)).toContain(mine.id);
    expect(visible.map((row) => row.id)).not.toContain(theirs.id);
    await expect(
      as(sessionOf(ada), (sql) => sql.query('select token_hash from public.api_tokens')),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      as(sessionOf(ada), (sql) => sql.query('select * from public.api_tokens')),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('lets a session insert its own token, but not one for someone else', async () => {
    expect(await insertAs(sessionOf(ada))).toHaveLength(1);
    await expect(insertAs(sessionOf(ada), grace.id)).rejects.toMatchObject({ code: '42501' });
  });

  it('refuses an API token to create or revoke tokens', async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    await expect(insertAs(apiTokenOf(user, token.id))).rejects.toMatchObject({ code: '42501' });
    const revoked = await as(apiTokenOf(user, token.id), (sql) =>
      sql.query('update public.api_tokens set revoked_at = now() where id = $1 returning id', [token.id]),
    );
    expect(revoked).toEqual([]);
    expect((await storedToken(token.id))?.revoked_at).toBeNull();
  });

  it('refuses an aal1 session of a person with a verified factor to insert a token', async () => {
    const user = await createTestUser(api.db);
    await insertVerifiedFactor(user.id);
    await expect(insertAs(sessionOf(user))).rejects.toMatchObject({ code: '42501' });
    expect(await insertAs(sessionOf(user, 'aal2'))).toHaveLength(1);
  });

  it("refuses to un-revoke a token, to revoke someone else's, or to change anything but revoked_at", async () => {
    const user = await createTestUser(api.db);
    const token = await createToken(user);
    await me().revokeToken(user.accessToken, token.id);
    await expect(
      as(sessionOf(user), (sql) =>
        sql.query('update public.api_tokens set revoked_at = null where id = $1', [token.id]),
      ),
    ).rejects.toMatchObject({ code: '42501' });
    const theirs = await createToken(grace);
    const touched = await as(sessionOf(user), (sql) =>
      sql.query('update public.api_tokens set revoked_at = now() where id = $1 returning id', [theirs.id]),
    );
    expect(touched).toEqual([]);
    for (const change of [
      "scope = 'write'",
      "expires_at = now() + interval '10 years'",
      'last_used_at = null',
    ]) {
      await expect(
        as(sessionOf(user), (sql) =>
          sql.query(`update public.api_tokens set ${change} where id = $1`, [token.id]),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    }
    await expect(
      as(sessionOf(user), (sql) => sql.query('delete from public.api_tokens where id = $1', [token.id])),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('keeps the lookup by hash to the service: neither authenticated nor anon may call it', async () => {
    await expect(
      as(sessionOf(ada), (sql) => sql.query(`select * from private.authenticate_api_token(sha256('x'))`)),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      asService(api.db, async (sql) => {
        await sql.query('set local role anon');
        return sql.query('select id from public.api_tokens');
      }),
    ).rejects.toMatchObject({ code: '42501' });
  });
});
