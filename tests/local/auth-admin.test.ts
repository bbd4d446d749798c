import type { SupabaseClient, User } from '@supabase/supabase-js';
import { beforeAll, describe, expect, test } from 'vitest';
import { supabaseClient, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';

describe('the stand-in Auth admin API, driven by supabase.auth.admin', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('admin');
  let admin: SupabaseClient['auth']['admin'];

  beforeAll(() => {
    admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
  });

  async function createdUser(attributes: Parameters<typeof admin.createUser>[0] = {}): Promise<User> {
    const { data, error } = await admin.createUser({
      email: newEmail(),
      password: PASSWORD,
      email_confirm: true,
      ...attributes,
    });
    expect(error).toBeNull();
    if (!data.user) throw new Error('createUser returned no user');
    return data.user;
  }

  async function signIn(email: string, password = PASSWORD) {
    const supabase = standIn.client();
    const result = await supabase.auth.signInWithPassword({ email, password });
    return { supabase, ...result };
  }

  test('createUser with email_confirm makes a user who can sign in, with merged metadata and a role', async () => {
    const email = newEmail();
    const user = await createdUser({
      email: email.toUpperCase(),
      user_metadata: { name: 'Ada' },
      app_metadata: { plan: 'team' },
    });
    expect(user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'], plan: 'team' },
      user_metadata: { name: 'Ada', email_verified: true },
      identities: [expect.objectContaining({ provider: 'email', id: user.id })],
    });
    expect(user.email_confirmed_at).toEqual(expect.any(String));
    expect(user).not.toHaveProperty('last_sign_in_at');
    const signedIn = await signIn(email);
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.id).toBe(user.id);

    const stored = await standIn.withDatabase((db) =>
      db.query<{ encrypted_password: string }>('select encrypted_password from auth.users where id = $1', [
        user.id,
      ]),
    );
    expect(stored.rows[0]?.encrypted_password).toMatch(/^\$2[aby]\$10\$.{53}$/);
  });

  test('createUser: unconfirmed users cannot sign in; ids, duplicates and weak passwords as GoTrue', async () => {
    const unconfirmed = await createdUser({ email_confirm: false });
    expect(unconfirmed).not.toHaveProperty('email_confirmed_at');
    const refused = await signIn(unconfirmed.email ?? '');
    expect(refused.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });

    const id = crypto.randomUUID();
    const chosen = await createdUser({ id });
    expect(chosen.id).toBe(id);

    const duplicate = await admin.createUser({ email: chosen.email?.toUpperCase(), password: PASSWORD });
    expect(duplicate.error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
    const weak = await admin.createUser({ email: newEmail(), password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    const tooLong = await admin.createUser({ email: newEmail(), password: 'x'.repeat(73) });
    expect(tooLong.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const noEmail = await admin.createUser({ password: PASSWORD });
    expect(noEmail.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const badId = await admin.createUser({ email: newEmail(), password: PASSWORD, id: 'nope' });
    expect(badId.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  test('the secret key works as the service_role key; anon, publishable and user tokens are not_admin', async () => {
    const viaSecretKey = supabaseClient(standIn.process.apiUrl, standIn.keys.secretKey).auth.admin;
    const created = await viaSecretKey.createUser({
      email: newEmail(),
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();

    const anonAdmin = standIn.client().auth.admin;
    const listed = await anonAdmin.listUsers();
    expect(listed.error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
    const publishable = supabaseClient(standIn.process.apiUrl, standIn.keys.publishableKey).auth.admin;
    expect((await publishable.createUser({ email: newEmail(), password: PASSWORD })).error).toMatchObject({
      status: 403,
      code: 'not_admin',
    });
    const { data } = await signIn(created.data.user?.email ?? '');
    const asUser = await standIn.callAuth(`/admin/users/${created.data.user?.id}`, {
      key: standIn.keys.anonKey,
      token: data.session?.access_token,
    });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
  });

  test('getUserById finds a user; unknown ids are user_not_found, malformed ones validation_failed', async () => {
    const user = await createdUser();
    const found = await admin.getUserById(user.id);
    expect(found.error).toBeNull();
    expect(found.data.user).toEqual(user);
    const unknown = await admin.getUserById(crypto.randomUUID());
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found', message: 'User not found' });
    const malformed = await standIn.callAuth('/admin/users/not-a-uuid', { key: standIn.keys.secretKey });
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toEqual({ code: 'validation_failed', message: 'user_id must be an UUID' });
  });

  test('listUsers pages newest first, with the total and the Link pages the client parses', async () => {
    // Seven users at least, whatever ran before, so that three pages have room for a short last page.
    for (let index = 0; index < 7; index += 1) await createdUser();
    const total = await standIn.withDatabase(async (db) => {
      const result = await db.query<{ total: number }>('select count(*)::int as total from auth.users');
      return result.rows[0]?.total ?? 0;
    });
    const newest = await standIn.withDatabase(async (db) => {
      const result = await db.query<{ id: string }>(
        'select id from auth.users order by created_at desc limit 2',
      );
      return result.rows.map((row) => row.id);
    });
    // Three pages at most: the client reads only the first digit of a page number.
    const perPage = Math.ceil(total / 3);
    const firstPage = await admin.listUsers({ page: 1, perPage });
    expect(firstPage.error).toBeNull();
    expect(firstPage.data).toMatchObject({ aud: 'authenticated', total, nextPage: 2, lastPage: 3 });
    expect(firstPage.data.users).toHaveLength(perPage);
    expect(firstPage.data.users.slice(0, 2).map((user) => user.id)).toEqual(newest);
    const lastPage = await admin.listUsers({ page: 3, perPage });
    expect(lastPage.data).toMatchObject({ nextPage: null, lastPage: 3, total });
    expect(lastPage.data.users).toHaveLength(total - 2 * perPage);

    const raw = await standIn.callAuth(`/admin/users?per_page=${perPage}&page=1`, {
      key: standIn.keys.secretKey,
    });
    expect(raw.headers.get('x-total-count')).toBe(String(total));
    expect(raw.headers.get('link')).toBe(
      `</admin/users?page=2&per_page=${perPage}>; rel="next", </admin/users?page=3&per_page=${perPage}>; rel="last"`,
    );
    const defaults = await standIn.callAuth('/admin/users?page=&per_page=', {
      key: standIn.keys.secretKey,
    });
    expect(defaults.status).toBe(200);
    expect(defaults.headers.get('link')).toBe('</admin/users?page=1&per_page=>; rel="last"');
    expect(((await defaults.json()) as { users: unknown[] }).users).toHaveLength(total);
    const bad = await standIn.callAuth('/admin/users?page=two', { key: standIn.keys.secretKey });
    expect(bad.status).toBe(400);
  });

  test('updateUserById merges metadata, changes the e-mail, and a new password signs out every session', async () => {
    const user = await createdUser({ user_metadata: { name: 'Ada', theme: 'dark' } });
    const { supabase } = await signIn(user.email ?? '');
    const token = (await supabase.auth.getSession()).data.session?.access_token;

    const newAddress = newEmail();
    const updated = await admin.updateUserById(user.id, {
      email: newAddress,
      user_metadata: { theme: null, locale: 'fr' },
      app_metadata: { plan: 'pro' },
      role: 'authenticated',
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user).toMatchObject({
      email: newAddress,
      user_metadata: { name: 'Ada', locale: 'fr', email_verified: true },
      app_metadata: { provider: 'email', plan: 'pro' },
      identities: [
        expect.objectContaining({ identity_data: expect.objectContaining({ email: newAddress }) }),
      ],
    });
    expect(updated.data.user?.user_metadata).not.toHaveProperty('theme');
    expect((await standIn.client().auth.getUser(token)).error).toBeNull();

    const taken = await createdUser();
    const conflict = await admin.updateUserById(user.id, { email: taken.email });
    expect(conflict.error).toMatchObject({ status: 422, code: 'email_exists' });
    const weak = await admin.updateUserById(user.id, { password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });

    const changed = await admin.updateUserById(user.id, { password: 'a brand new passphrase' });
    expect(changed.error).toBeNull();
    expect((await standIn.client().auth.getUser(token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect((await signIn(newAddress)).error).toMatchObject({ code: 'invalid_credentials' });
    expect((await signIn(newAddress, 'a brand new passphrase')).error).toBeNull();
  });

  test('ban_duration bans the user from signing in and refreshing; "none" lifts the ban', async () => {
    const user = await createdUser();
    const { data } = await signIn(user.email ?? '');
    const banned = await admin.updateUserById(user.id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    const until = new Date(banned.data.user?.banned_until ?? 0).getTime();
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    expect((await signIn(user.email ?? '')).error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'User is banned',
    });
    const refresh = await standIn
      .client()
      .auth.refreshSession({ refresh_token: data.session?.refresh_token ?? '' });
    expect(refresh.error).toMatchObject({ status: 400, code: 'user_banned' });
    const withOldToken = await standIn.client().auth.getUser(data.session?.access_token);
    expect(withOldToken.error).toMatchObject({ status: 403, code: 'user_banned' });
    const badDuration = await admin.updateUserById(user.id, { ban_duration: 'forever' });
    expect(badDuration.error).toMatchObject({ status: 400, code: 'validation_failed' });

    const lifted = await admin.updateUserById(user.id, { ban_duration: 'none' });
    expect(lifted.data.user).not.toHaveProperty('banned_until');
    expect((await signIn(user.email ?? '')).error).toBeNull();
    const bannedAtBirth = await createdUser({ ban_duration: '1h' });
    expect((await signIn(bannedAtBirth.email ?? '')).error).toMatchObject({ code: 'user_banned' });
  });

  test('deleteUser removes the user with identities, sessions and factors; its token no longer works', async () => {
    const user = await createdUser();
    const { supabase, data } = await signIn(user.email ?? '');
    const factor = await supabase.auth.mfa.enroll({ factorType: 'totp' });
    expect(factor.error).toBeNull();

    const deleted = await admin.deleteUser(user.id);
    expect(deleted.error).toBeNull();
    expect(deleted.data.user?.id).toBe(user.id);
    const afterDelete = await standIn.callAuth('/user', {
      key: standIn.keys.anonKey,
      token: data.session?.access_token,
    });
    expect(afterDelete.status).toBe(403);
    expect(await afterDelete.json()).toEqual({
      code: 'user_not_found',
      message: 'User from sub claim in JWT does not exist',
    });
    const left = await standIn.withDatabase((db) =>
      db.query<{ rows: number }>(
        `select (select count(*) from auth.users where id = $1)
              + (select count(*) from auth.identities where user_id = $1)
              + (select count(*) from auth.sessions where user_id = $1)
              + (select count(*) from auth.mfa_factors where user_id = $1) as rows`,
        [user.id],
      ),
    );
    expect(Number(left.rows[0]?.rows)).toBe(0);
    expect((await admin.getUserById(user.id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  test('a soft delete keeps the row with obfuscated addresses; the e-mail can be used again', async () => {
    const user = await createdUser();
    const { data } = await signIn(user.email ?? '');
    const deleted = await admin.deleteUser(user.id, true);
    expect(deleted.error).toBeNull();

    const kept = await admin.getUserById(user.id);
    expect(kept.data.user?.deleted_at).toEqual(expect.any(String));
    expect(kept.data.user?.email).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(kept.data.user?.identities).toEqual([expect.objectContaining({ identity_data: {} })]);
    const tokenRefused = await standIn.client().auth.getUser(data.session?.access_token);
    expect(tokenRefused.error).toMatchObject({ status: 403 });
    const sessions = await standIn.withDatabase((db) =>
      db.query('select 1 from auth.sessions where user_id = $1', [user.id]),
    );
    expect(sessions.rowCount).toBe(0);
    expect((await signIn(user.email ?? '')).error).toMatchObject({ code: 'invalid_credentials' });
    const again = await admin.createUser({ email: user.email, password: PASSWORD, email_confirm: true });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).not.toBe(user.id);
  });
});
