import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../supabase/functions/_shared/db.ts';
import { useTestApp } from '../support/api-app.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import { callApi, expectProblem, problemOf } from '../support/api-request.ts';
import {
  accessTokenClaims,
  createTestUser,
  insertMfaFactor,
  signWithTestKey,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();
const ME = '/api/v1/me';

let ada: TestUser;
let grace: TestUser;
beforeAll(async () => {
  ada = await createTestUser(api.db, { email: 'ada@example.com', displayName: 'Ada Lovelace' });
  grace = await createTestUser(api.db, { email: 'grace.hopper@example.com' });
});

const getMe = (user: TestUser, token = user.accessToken) => callApi(api.app, ME, withBearer(token));

const patchMe = (
  user: TestUser,
  body: string,
  contentType = 'application/merge-patch+json',
  headers: Record<string, string> = {},
) =>
  callApi(
    api.app,
    ME,
    withBearer(user.accessToken, {
      method: 'PATCH',
      headers: { 'Content-Type': contentType, ...headers },
      body,
    }),
  );

interface ProfileRow extends Record<string, unknown> {
  user_id: string;
  display_name: string;
  updated_at: Date;
}

async function profileOf(userId: string): Promise<ProfileRow | undefined> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<ProfileRow>(
      'select user_id, display_name, updated_at from public.profiles where user_id = $1',
      [userId],
    ),
  );
  return row;
}

const insertFactor = (userId: string, status: 'verified' | 'unverified', createdAt: string) =>
  insertMfaFactor(api.db, userId, { status, createdAt, friendlyName: `${status} phone` });

describe('GET /api/v1/me', () => {
  it("answers the caller's account", async () => {
    const response = await getMe(ada);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'user',
      id: ada.id,
      email: 'ada@example.com',
      display_name: 'Ada Lovelace',
      avatar_url: null,
      time_zone: null,
      aal: 'aal1',
      credential: { type: 'session', api_token_id: null, scope: null },
      mfa: { enabled: false, factors: [] },
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('names each caller as themselves', async () => {
    const response = await getMe(grace);
    expect(response.body).toMatchObject({ id: grace.id, email: 'grace.hopper@example.com' });
  });

  it('answers the assurance level of the session the token carries', async () => {
    const aal2 = await signWithTestKey(accessTokenClaims(ada, 'aal2'));
    expect((await getMe(ada, aal2)).body).toMatchObject({ aal: 'aal2' });
  });

  it('lists the MFA factors, oldest first and without secrets; a verified one turns MFA on', async () => {
    const user = await createTestUser(api.db);
    const unverified = await insertFactor(user.id, 'unverified', '2026-11-20T10:00:00Z');
    expect((await getMe(user)).body).toMatchObject({
      mfa: { enabled: false, factors: [{ id: unverified, status: 'unverified' }] },
    });

    const verified = await insertFactor(user.id, 'verified', '2026-11-19T08:30:00Z');
    const response = await getMe(user);
    expect(response.body).toMatchObject({
      mfa: {
        enabled: true,
        factors: [
          {
            id: verified,
            friendly_name: 'verified phone',
            factor_type: 'totp',
            status: 'verified',
            created_at: '2026-11-19T08:30:00.000Z',
          },
          { id: unverified, status: 'unverified' },
        ],
      },
    });
    expect(response.text).not.toContain('JBSWY3DPEHPK3PXP');
    expect((await getMe(ada)).body).toMatchObject({ mfa: { enabled: false, factors: [] } });
  });

  it('rejects a query parameter it does not define', async () => {
    const response = await callApi(api.app, `${ME}?expand=all`, withBearer(ada.accessToken));
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'query.expand', code: 'unknown_field' }),
    ]);
  });
});

describe('the profile made at sign-up', () => {
  it.each([
    [
      'the display name given at sign-up, trimmed',
      { displayName: '  Katherine Johnson \n' },
      'Katherine Johnson',
    ],
    ['the display name cut to 80 characters', { displayName: `${'x'.repeat(79)} yz` }, 'x'.repeat(79)],
    [
      'the e-mail local part without a display name',
      { email: 'dorothy.vaughan@example.com' },
      'dorothy.vaughan',
    ],
    [
      'the e-mail local part for a blank display name',
      { email: 'mary@example.com', displayName: '   ' },
      'mary',
    ],
  ])('takes %s', async (_name, newUser, expected) => {
    const user = await createTestUser(api.db, newUser);
    expect((await profileOf(user.id))?.display_name).toBe(expected);
    expect((await getMe(user)).body).toMatchObject({ display_name: expected });
  });

  it('is made when Auth itself (supabase_auth_admin) inserts the user, as on hosted Supabase', async () => {
    const id = randomUUID();
    await asService(api.db, async (sql) => {
      await sql.query('set local role supabase_auth_admin');
      await sql.query(
        `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
         values ($1, 'authenticated', 'authenticated', 'hosted@example.com', '{}', now(), now())`,
        [id],
      );
    });
    expect((await profileOf(id))?.display_name).toBe('hosted');
  });

  it('goes with its user', async () => {
    const user = await createTestUser(api.db);
    await asService(api.db, (sql) => sql.query('delete from auth.users where id = $1', [user.id]));
    expect(await profileOf(user.id)).toBeUndefined();
  });
});

describe('PATCH /api/v1/me', () => {
  it('changes the display name, trimmed, and answers the whole account', async () => {
    const user = await createTestUser(api.db);
    const before = await profileOf(user.id);
    const response = await patchMe(user, JSON.stringify({ display_name: '  Hedy Lamarr  ' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'user',
      id: user.id,
      email: user.email,
      display_name: 'Hedy Lamarr',
    });
    const after = await profileOf(user.id);
    expect(after?.display_name).toBe('Hedy Lamarr');
    expect(after?.updated_at.getTime()).toBeGreaterThan(before?.updated_at.getTime() ?? Infinity);
    expect((await getMe(user)).body).toMatchObject({ display_name: 'Hedy Lamarr' });
  });

  it('sets the time zone, keeps the name, clears it with null, and refuses an unknown zone', async () => {
    const user = await createTestUser(api.db);
    const before = await profileOf(user.id);
    const set = await patchMe(user, JSON.stringify({ time_zone: 'Europe/Paris' }));
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ time_zone: 'Europe/Paris', display_name: before?.display_name });

    const unknown = await patchMe(user, JSON.stringify({ time_zone: 'Mars/Olympus_Mons' }));
    expect(unknown.status).toBe(422);
    expect(problemOf(unknown).errors?.map((error) => error.path)).toEqual(['body.time_zone']);
    expect((await getMe(user)).body).toMatchObject({ time_zone: 'Europe/Paris' });

    const cleared = await patchMe(user, JSON.stringify({ time_zone: null }));
    expect(cleared.body).toMatchObject({ time_zone: null });
  });

  it('bumps the version, and honours If-Match with 412 and the current version', async () => {
    const user = await createTestUser(api.db);
    const renamed = await patchMe(user, JSON.stringify({ display_name: 'First' }), undefined, {
      'If-Match': '"1"',
    });
    expect(renamed.body).toMatchObject({ display_name: 'First', version: 2 });
    for (const body of ['{"display_name":"Second"}', '{}']) {
      const stale = await patchMe(user, body, undefined, { 'If-Match': '"1"' });
      expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(2);
    }
    expect((await profileOf(user.id))?.display_name).toBe('First');
  });

  it('accepts plain application/json too, and a name of exactly 80 characters', async () => {
    const user = await createTestUser(api.db);
    const name = 'n'.repeat(80);
    const response = await patchMe(user, JSON.stringify({ display_name: name }), 'application/json');
    expect(response.status).toBe(200);
    expect((await profileOf(user.id))?.display_name).toBe(name);
  });

  it('changes nothing for an empty merge patch', async () => {
    const user = await createTestUser(api.db);
    const before = await profileOf(user.id);
    const response = await patchMe(user, '{}');
    expect(response.status).toBe(200);
    expect(await profileOf(user.id)).toEqual(before);
  });

  it.each([
    ['an empty name', { display_name: '' }, 'body.display_name', 'too_short'],
    ['a blank name', { display_name: '   ' }, 'body.display_name', 'too_short'],
    ['81 characters', { display_name: 'x'.repeat(81) }, 'body.display_name', 'too_long'],
    ['null (it cannot be removed)', { display_name: null }, 'body.display_name', 'invalid_type'],
    ['a number', { display_name: 42 }, 'body.display_name', 'invalid_type'],
    ['a read-only field', { email: 'mallory@example.com' }, 'body.email', 'unknown_field'],
    ['an unknown field', { role: 'admin' }, 'body.role', 'unknown_field'],
  ])('answers 422 to %s, and changes nothing', async (_name, body, path, code) => {
    const user = await createTestUser(api.db);
    const before = await profileOf(user.id);
    const response = await patchMe(user, JSON.stringify(body));
    expect(response.status).toBe(422);
    const problem = problemOf(response);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.map((error) => ({ path: error.path, code: error.code }))).toEqual([
      { path, code },
    ]);
    expect(await profileOf(user.id)).toEqual(before);
  });

  it.each([
    ['an array', '["Ada"]'],
    ['a string', '"Ada"'],
    ['null', 'null'],
  ])('answers 422 to a body that is %s, not an object', async (_name, body) => {
    const response = await patchMe(ada, body);
    expect(response.status).toBe(422);
    expect(problemOf(response).errors).toEqual([
      expect.objectContaining({ path: 'body', code: 'invalid_type' }),
    ]);
  });

  it('answers 400 to malformed JSON and 415 to a body that is not JSON', async () => {
    expect((await patchMe(ada, '{"display_name":')).status).toBe(400);
    expect((await patchMe(ada, 'display_name=Ada', 'application/x-www-form-urlencoded')).status).toBe(415);
  });

  it("leaves everyone else's profile as it was", async () => {
    const bystander = await profileOf(grace.id);
    expect((await patchMe(ada, JSON.stringify({ display_name: 'Countess of Lovelace' }))).status).toBe(200);
    expect(await profileOf(grace.id)).toEqual(bystander);
    expect((await profileOf(ada.id))?.display_name).toBe('Countess of Lovelace');
  });
});

describe('row-level security on profiles, straight in SQL', () => {
  const asAda = <T>(work: (sql: Sql) => Promise<T>) => api.db.asCaller(ada.principal, work);
  const asAnon = <T>(work: (sql: Sql) => Promise<T>) =>
    asService(api.db, async (sql) => {
      await sql.query('set local role anon');
      return work(sql);
    });

  it("shows a user their own profile and no one else's", async () => {
    const rows = await asAda((sql) => sql.query<{ user_id: string }>('select user_id from public.profiles'));
    expect(rows.map((row) => row.user_id)).toEqual([ada.id]);
    const others = await asAda((sql) =>
      sql.query('select * from public.profiles where user_id = $1', [grace.id]),
    );
    expect(others).toEqual([]);
  });

  it("lets a user update no one else's profile", async () => {
    const before = await profileOf(grace.id);
    const updated = await asAda((sql) =>
      sql.query("update public.profiles set display_name = 'Pwned' where user_id = $1 returning user_id", [
        grace.id,
      ]),
    );
    expect(updated).toEqual([]);
    expect(await profileOf(grace.id)).toEqual(before);
  });

  it.each([
    [
      'insert a profile',
      "insert into public.profiles (user_id, display_name) values (gen_random_uuid(), 'New')",
    ],
    ['delete their profile', 'delete from public.profiles where user_id = auth.uid()'],
    ['move their profile to another id', 'update public.profiles set user_id = gen_random_uuid()'],
    ['back-date their profile', "update public.profiles set created_at = '2000-01-01'"],
    ['read auth.sessions', 'select * from auth.sessions'],
    ['read auth.mfa_factors', 'select * from auth.mfa_factors'],
  ])('denies a user to %s', async (_name, statement) => {
    await expect(asAda((sql) => sql.query(statement))).rejects.toMatchObject({ code: '42501' });
  });

  it.each([
    ['read profiles', 'select * from public.profiles'],
    ['list MFA factors', 'select * from private.caller_mfa_factors()'],
    ['read an account', 'select * from private.caller_account()'],
  ])('gives anon nothing: it may not %s', async (_name, statement) => {
    await expect(asAnon((sql) => sql.query(statement))).rejects.toMatchObject({ code: '42501' });
  });

  it("answers the caller's own factors and account only", async () => {
    await insertFactor(grace.id, 'verified', '2026-11-21T12:00:00Z');
    expect(await asAda((sql) => sql.query('select * from private.caller_mfa_factors()'))).toEqual([]);
    const account = await asAda((sql) =>
      sql.query<{ email: string }>('select email from private.caller_account()'),
    );
    expect(account).toEqual([{ email: 'ada@example.com' }]);
  });
});
