/**
 * Idempotency-Key, end to end: a test-only create route written as a feature would write it, behind the
 * real middleware stack, on tables of this file's database; and PATCH /v1/me, a real route.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv, AuthenticatedEnv } from '../../supabase/functions/api/app-env.ts';
import { jsonWithETag } from '../../supabase/functions/api/http/conditional.ts';
import { readJsonBody } from '../../supabase/functions/api/http/json-body.ts';
import type { CredentialVerifier } from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { AppError } from '../../supabase/functions/_shared/errors.ts';
import { JSON_BODY_MAX_DEPTH } from '../../supabase/functions/_shared/limits.ts';
import type { Principal } from '../../supabase/functions/_shared/principal.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, callTestRoute, problemOf, type ApiResponse } from '../support/api-request.ts';
import { createTestUser, testCredentials, withBearer, type TestUser } from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

// A widget is created in two units of work (the widget, then its audit line), as services often do:
// both must join the request's transaction, together with the key's record.
const CreateWidget = z.strictObject({
  name: z.string().min(1),
  outcome: z.enum(['created', 'conflict', 'crash']).default('created'),
  slow: z.boolean().default(false),
});
type CreateWidget = z.output<typeof CreateWidget>;

interface WidgetRow extends Record<string, unknown> {
  id: string;
  name: string;
  version: number;
}
/** The test route's answer, which the contract does not describe: parsed, so a wrong shape fails here. */
const WidgetBody = z.looseObject({ id: z.string(), name: z.string(), version: z.number() });

async function createWidget(db: Database, principal: Principal, request: CreateWidget) {
  const widget = await db.asCaller(principal, async (sql) => {
    const [row] = await sql.query<WidgetRow>(
      'insert into public.idempotency_test_widgets (name) values ($1) returning id, name, version',
      [request.name],
    );
    if (!row) throw new Error('no row');
    // Long enough for concurrent retries to find the key still in use.
    if (request.slow) await sql.query('select pg_sleep(0.2)');
    return row;
  });
  await db.asCaller(principal, async (sql) => {
    await sql.query('insert into public.idempotency_test_audit (widget_id) values ($1)', [widget.id]);
    if (request.outcome === 'conflict') throw new AppError('limit_reached', 'Too many widgets.');
    if (request.outcome === 'crash') throw new Error('the widget machine broke');
  });
  return { object: 'test_widget' as const, ...widget };
}

const routes = new Hono<AuthenticatedEnv>()
  .post('/test-widgets', async (c) => {
    const widget = await createWidget(api.db, c.var.principal, await readJsonBody(c, CreateWidget));
    c.header('Location', `test-widgets/${widget.id}`);
    return jsonWithETag(c, widget, 201);
  })
  .get('/test-widgets', async (c) => c.json({ ok: true }, 200));

// API tokens of their own kind, so that this file does not depend on how tokens are issued.
const FAKE_TOKEN_PREFIX = 'fake-api-token.';
let tokenPrincipal: Principal;
function credentialsWithFakeTokens(db: Database): CredentialVerifier {
  const real = testCredentials(db);
  return {
    verify: (token) =>
      token.startsWith(FAKE_TOKEN_PREFIX) ? Promise.resolve(tokenPrincipal) : real.verify(token),
  };
}

const api = useTestApp({
  extraRoutes: new Hono<AppEnv>().route('/', routes),
  credentials: credentialsWithFakeTokens,
});
const WIDGETS = '/api/v1/test-widgets';

let ada: TestUser;
let grace: TestUser;
beforeAll(async () => {
  ada = await createTestUser(api.db, { displayName: 'Ada' });
  grace = await createTestUser(api.db);
  tokenPrincipal = {
    user_id: ada.id,
    email: ada.email,
    aal: 'aal1',
    session_id: null,
    api_token: { id: randomUUID(), scope: 'write' },
  };
  await asService(api.db, async (sql) => {
    // The token exists, unrevoked: RLS admits live credentials only (decision 0032).
    await sql.query(
      `insert into public.api_tokens (id, user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, $2, 'fake', 'tl_pat_fake', sha256(convert_to($3, 'UTF8')), 'write', now() + interval '1 day')`,
      [tokenPrincipal.api_token?.id, ada.id, tokenPrincipal.api_token?.id],
    );
    await sql.query(
      `create table public.idempotency_test_widgets (
         id uuid primary key default gen_random_uuid(),
         name text not null,
         version integer not null default 1,
         written_in xid not null default pg_current_xact_id()::xid
       )`,
    );
    await sql.query(
      `create table public.idempotency_test_audit (
         widget_id uuid not null references public.idempotency_test_widgets (id),
         written_in xid not null default pg_current_xact_id()::xid
       )`,
    );
    for (const table of ['idempotency_test_widgets', 'idempotency_test_audit']) {
      await sql.query(`alter table public.${table} enable row level security`);
      await sql.query(`grant select, insert on public.${table} to authenticated`);
      await sql.query(
        `create policy "Anyone may" on public.${table} to authenticated using (true) with check (true)`,
      );
    }
  });
});

function post(body: unknown, key?: string, token = ada.accessToken): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== undefined) headers['Idempotency-Key'] = key;
  return callTestRoute(
    api.app,
    WIDGETS,
    withBearer(token, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
}

async function widgetsNamed(name: string): Promise<number> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ count: number }>(
      'select count(*)::integer as count from public.idempotency_test_widgets where name = $1',
      [name],
    ),
  );
  return row?.count ?? 0;
}

async function recordsOf(key: string): Promise<{ principal: string; user_id: string }[]> {
  return asService(api.db, (sql) =>
    sql.query<{ principal: string; user_id: string }>(
      'select principal, user_id from public.idempotency_keys where key = $1 order by principal',
      [key],
    ),
  );
}

const replayed = (response: ApiResponse) => response.headers.get('idempotent-replayed');

describe('the same idempotent POST', () => {
  it('sent 20 times at once creates one widget, and every success is the same answer', async () => {
    const key = randomUUID();
    const name = `concurrent ${key}`;
    const responses = await Promise.all(Array.from({ length: 20 }, () => post({ name, slow: true }, key)));

    expect(await widgetsNamed(name)).toBe(1);
    const successes = responses.filter((response) => response.status === 201);
    const others = responses.filter((response) => response.status !== 201);
    expect(successes.length).toBeGreaterThanOrEqual(1);
    for (const other of others) expect(problemOf(other).code).toBe('idempotency_key_in_use');
    expect(others.every((other) => other.status === 409)).toBe(true);

    const [first] = successes.filter((response) => replayed(response) === null);
    expect(successes.filter((response) => replayed(response) === null)).toHaveLength(1);
    for (const success of successes) {
      expect(success.text).toBe(first?.text);
      expect(success.headers.get('location')).toBe(first?.headers.get('location'));
      expect(success.headers.get('etag')).toBe('"1"');
    }
    expect(successes.filter((response) => replayed(response) === 'true')).toHaveLength(successes.length - 1);

    // Once the first has finished, a retry is always its replay.
    const retry = await post({ name, slow: true }, key);
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBe('true');
    expect(retry.text).toBe(first?.text);
    expect(await widgetsNamed(name)).toBe(1);
  });

  it('is replayed after the first has completed: status, body, Location, ETag, Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await post({ name: 'replayed' }, key);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    // The same JSON value, written differently, is the same request.
    const retry = await callTestRoute(
      api.app,
      WIDGETS,
      withBearer(ada.accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: '{ "name" :"replayed" }',
      }),
    );
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(retry.headers.get('ratelimit')).toMatch(/^"user";r=\d+;t=\d+$/);
    expect(await widgetsNamed('replayed')).toBe(1);
  });

  it('writes the key in the very transaction of the effect', async () => {
    const key = randomUUID();
    const response = await post({ name: `atomic ${key}` }, key);
    const widget = WidgetBody.parse(response.body);
    const [row] = await asService(api.db, (sql) =>
      sql.query<{ widget: string; audit: string; record: string }>(
        // Each unit of work runs in a savepoint (its rows' xmin is a subtransaction's), so the rows
        // name their top-level transaction themselves; the record is written outside any savepoint.
        `select
           (select written_in::text from public.idempotency_test_widgets where id = $1) as widget,
           (select written_in::text from public.idempotency_test_audit where widget_id = $1) as audit,
           (select xmin::text from public.idempotency_keys where key = $2) as record`,
        [widget.id, key],
      ),
    );
    expect(row?.record).toBeTruthy();
    expect(row).toEqual({ widget: row?.record, audit: row?.record, record: row?.record });
  });
});

describe('the same key with another request', () => {
  it.each([
    ['another body', { name: 'something else' }, WIDGETS],
    ['another query', { name: 'original' }, `${WIDGETS}?dry_run=true`],
  ])('with %s is 422 idempotency_key_reused and creates nothing', async (_name, body, path) => {
    const key = randomUUID();
    expect((await post({ name: 'original' }, key)).status).toBe(201);
    const response = await callTestRoute(
      api.app,
      path,
      withBearer(ada.accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      }),
    );
    expect(response.status).toBe(422);
    expect(problemOf(response).code).toBe('idempotency_key_reused');
    expect(await widgetsNamed('something else')).toBe(0);
  });
});

describe('keys belong to their principal', () => {
  it("do not collide with another user's, nor with the same user's API token's", async () => {
    const key = randomUUID();
    const name = `shared key ${key}`;
    const byAda = await post({ name }, key);
    const byGrace = await post({ name }, key, grace.accessToken);
    const byAdasToken = await post({ name }, key, `${FAKE_TOKEN_PREFIX}ada`);
    for (const response of [byAda, byGrace, byAdasToken]) {
      expect(response.status).toBe(201);
      expect(replayed(response)).toBeNull();
    }
    expect(await widgetsNamed(name)).toBe(3);
    expect(await recordsOf(key)).toEqual(
      [
        { principal: `api_token:${tokenPrincipal.api_token?.id}`, user_id: ada.id },
        { principal: `user:${ada.id}`, user_id: ada.id },
        { principal: `user:${grace.id}`, user_id: grace.id },
      ].sort((a, b) => a.principal.localeCompare(b.principal)),
    );
  });

  it('are hidden from other callers by row-level security, and cannot be written for someone else', async () => {
    const key = randomUUID();
    expect((await post({ name: 'private' }, key)).status).toBe(201);
    const asGrace = <T>(statement: string, values: unknown[] = []) =>
      api.db.asCaller(grace.principal, (sql) => sql.query<Record<string, T>>(statement, values));
    expect(await asGrace('select * from public.idempotency_keys where key = $1', [key])).toEqual([]);
    expect(await asGrace('delete from public.idempotency_keys where key = $1 returning key', [key])).toEqual(
      [],
    );
    const forge = `insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
       values ($1, $2, repeat('a', 64), '{}', now() + interval '1 hour')`;
    await expect(asGrace(forge, [`user:${ada.id}`, key])).rejects.toMatchObject({ code: '42501' });
    await expect(
      asGrace("update public.idempotency_keys set key = 'x' where key = $1", [key]),
    ).rejects.toMatchObject({ code: '42501' });
    expect(await recordsOf(key)).toEqual([{ principal: `user:${ada.id}`, user_id: ada.id }]);
  });
});

describe('answers that are not successes', () => {
  it.each([
    ['a 409 from the service', 'conflict', 409, 'limit_reached'],
    ['a 500 from a bug', 'crash', 500, 'internal'],
  ])(
    'are not stored for %s: the effect rolls back and a retry runs again',
    async (_name, outcome, status, code) => {
      const key = randomUUID();
      const name = `failing ${key}`;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await post({ name, outcome }, key);
        expect(response.status).toBe(status);
        expect(problemOf(response).code).toBe(code);
        expect(replayed(response)).toBeNull();
      }
      expect(await widgetsNamed(name)).toBe(0);
      expect(await recordsOf(key)).toEqual([]);
      // Nothing was stored, so the key is still free for a request that succeeds.
      expect((await post({ name }, key)).status).toBe(201);
      expect(await widgetsNamed(name)).toBe(1);
    },
  );

  it('are not stored for a body that fails validation', async () => {
    const key = randomUUID();
    expect((await post({ name: '' }, key)).status).toBe(422);
    expect(await recordsOf(key)).toEqual([]);
  });

  it('answer a body nested too deeply with 400, not a stack overflow, and store nothing', async () => {
    const key = randomUUID();
    // Just under 1 MiB: half a million levels, far beyond any call stack.
    const depth = 500_000;
    const response = await callTestRoute(
      api.app,
      WIDGETS,
      withBearer(ada.accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      }),
    );
    expect(response.status).toBe(400);
    expect(problemOf(response)).toMatchObject({
      code: 'bad_request',
      detail: `The body is nested more than ${JSON_BODY_MAX_DEPTH} levels deep.`,
    });
    expect(await recordsOf(key)).toEqual([]);
  });
});

describe('the key itself', () => {
  it('may be 255 characters long', async () => {
    expect((await post({ name: 'long key' }, 'k'.repeat(255))).status).toBe(201);
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256), 'too_long'],
    ['empty', '', 'too_short'],
  ])('is 400 bad_request when %s, and nothing runs', async (_name, key, code) => {
    const name = `bad key ${code}`;
    const response = await post({ name }, key);
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'header.idempotency-key', code }),
    ]);
    expect(await widgetsNamed(name)).toBe(0);
  });

  it('is ignored on a GET', async () => {
    const key = randomUUID();
    const response = await callTestRoute(
      api.app,
      WIDGETS,
      withBearer(ada.accessToken, { headers: { 'Idempotency-Key': key } }),
    );
    expect(response.status).toBe(200);
    expect(await recordsOf(key)).toEqual([]);
  });
});

describe('expired keys', () => {
  async function expire(key: string): Promise<void> {
    await asService(api.db, (sql) =>
      sql.query(
        `update public.idempotency_keys
         set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
         where key = $1`,
        [key],
      ),
    );
  }

  it('are ignored: the request runs again and is recorded anew', async () => {
    const key = randomUUID();
    const name = `expiring ${key}`;
    expect((await post({ name }, key)).status).toBe(201);
    await expire(key);
    const again = await post({ name }, key);
    expect(again.status).toBe(201);
    expect(replayed(again)).toBeNull();
    expect(await widgetsNamed(name)).toBe(2);
    expect(await recordsOf(key)).toHaveLength(1);
  });

  it('are swept when another key is recorded, and by the cleanup function', async () => {
    const swept = randomUUID();
    expect((await post({ name: 'to be swept' }, swept)).status).toBe(201);
    await expire(swept);
    expect((await post({ name: 'sweeper' }, randomUUID())).status).toBe(201);
    expect(await recordsOf(swept)).toEqual([]);

    const cleaned = randomUUID();
    const kept = randomUUID();
    expect((await post({ name: 'to be cleaned' }, cleaned)).status).toBe(201);
    expect((await post({ name: 'to be kept' }, kept)).status).toBe(201);
    await expire(cleaned);
    const [result] = await asService(api.db, (sql) =>
      sql.query<{ deleted: number }>('select private.delete_expired_idempotency_keys() as deleted'),
    );
    expect(result?.deleted).toBe(1);
    expect(await recordsOf(cleaned)).toEqual([]);
    expect(await recordsOf(kept)).toHaveLength(1);
  });
});

describe('PATCH /v1/me with an Idempotency-Key', () => {
  const patchMe = (body: unknown, key: string) =>
    callApi(
      api.app,
      '/api/v1/me',
      withBearer(ada.accessToken, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      }),
    );

  it('replays the first answer and refuses another change under the same key', async () => {
    const key = randomUUID();
    const first = await patchMe({ display_name: 'Ada, once' }, key);
    expect(first.status).toBe(200);
    // Someone else changes the name meanwhile; the replay still answers what the first request did.
    await asService(api.db, (sql) =>
      sql.query("update public.profiles set display_name = 'Changed elsewhere' where user_id = $1", [ada.id]),
    );
    const replay = await patchMe({ display_name: 'Ada, once' }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const [profile] = await asService(api.db, (sql) =>
      sql.query<{ display_name: string }>('select display_name from public.profiles where user_id = $1', [
        ada.id,
      ]),
    );
    expect(profile?.display_name).toBe('Changed elsewhere');

    const reused = await patchMe({ display_name: 'Ada, twice' }, key);
    expect(reused.status).toBe(422);
    expect(problemOf(reused).code).toBe('idempotency_key_reused');
  });
});
