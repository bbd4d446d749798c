import { setTimeout as sleep } from 'node:timers/promises';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, test } from 'vitest';
import { uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const REUSE_INTERVAL_SECONDS = 1;
const PASSWORD = 'correct horse battery';

describe('the stand-in Auth service, driven by supabase-js', () => {
  const standIn = useStandIn({
    ...UNLIMITED_AUTH_RATES,
    TASKLANE_AUTH_REFRESH_TOKEN_REUSE_INTERVAL: String(REUSE_INTERVAL_SECONDS),
  });
  // Mixed case on purpose: the stand-in stores and answers addresses in lower case.
  const newEmail = uniqueEmails('Person', 'Example.com');

  async function signedUp(email = newEmail()): Promise<{ email: string; session: Session }> {
    const { data, error } = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    if (!data.session) throw new Error('signUp returned no session');
    return { email, session: data.session };
  }

  async function signedIn(email: string, password = PASSWORD): Promise<SupabaseClient> {
    const supabase = standIn.client();
    const { error } = await supabase.auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    return supabase;
  }

  async function refreshed(refreshToken: string): Promise<Session> {
    const { data, error } = await standIn.client().auth.refreshSession({ refresh_token: refreshToken });
    expect(error).toBeNull();
    if (!data.session) throw new Error('refreshSession returned no session');
    return data.session;
  }

  test('signUp returns a session and a confirmed user, and stores a bcrypt hash', async () => {
    const email = newEmail();
    const { data, error } = await standIn.client().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Ada' } },
    });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(data.session?.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(data.user).toMatchObject({
      email: email.toLowerCase(),
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Ada' },
      is_anonymous: false,
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(data.user?.identities).toMatchObject([{ provider: 'email', id: data.user?.id }]);
    const stored = await standIn.withDatabase((db) =>
      db.query<{ encrypted_password: string }>('select encrypted_password from auth.users where id = $1', [
        data.user?.id,
      ]),
    );
    expect(stored.rows[0]?.encrypted_password).toMatch(/^\$2[aby]\$10\$.{53}$/);
    expect(stored.rows[0]?.encrypted_password).not.toContain(PASSWORD);
  });

  test('issues ES256 access tokens with GoTrue claims, which getClaims verifies through the JWKS', async () => {
    const { email, session } = await signedUp();
    const supabase = standIn.client();
    const { data, error } = await supabase.auth.getClaims(session.access_token);
    expect(error).toBeNull();
    expect(data?.header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    expect(data?.claims).toMatchObject({
      iss: `${standIn.process.apiUrl}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      email: email.toLowerCase(),
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect((data?.claims.exp ?? 0) - (data?.claims.iat ?? 0)).toBe(3600);
    const jwks = await fetch(`${standIn.process.apiUrl}/auth/v1/.well-known/jwks.json`, {
      headers: { apikey: standIn.keys.anonKey },
    });
    const body = (await jwks.json()) as { keys: { kid: string; alg: string }[] };
    expect(body.keys).toEqual([expect.objectContaining({ kid: data?.header.kid, alg: 'ES256' })]);
  });

  test('signInWithPassword signs in case-insensitively; a wrong password or unknown user is invalid_credentials', async () => {
    const { email } = await signedUp();
    const { data, error } = await standIn.client().auth.signInWithPassword({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email.toLowerCase());
    const wrong = await standIn.client().auth.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    const unknown = await standIn.client().auth.signInWithPassword({ email: newEmail(), password: PASSWORD });
    expect(unknown.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  test('refuses a duplicate e-mail, a weak password and an invalid e-mail as GoTrue does', async () => {
    const { email } = await signedUp();
    const duplicate = await standIn.client().auth.signUp({ email: email.toUpperCase(), password: PASSWORD });
    expect(duplicate.error).toMatchObject({
      status: 422,
      code: 'user_already_exists',
      message: 'User already registered',
    });
    const weak = await standIn.client().auth.signUp({ email: newEmail(), password: 'short' });
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      name: 'AuthWeakPasswordError',
      reasons: ['length'],
    });
    const sameAsEmail = newEmail();
    const same = await standIn.client().auth.signUp({ email: sameAsEmail, password: sameAsEmail });
    expect(same.error).toMatchObject({ status: 422, code: 'weak_password' });
    const invalid = await standIn.client().auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(invalid.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  test('answers errors with {code, message}, the echoed API version and CORS headers', async () => {
    const response = await fetch(`${standIn.process.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        apikey: standIn.keys.anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ email: newEmail(), password: PASSWORD }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
    expect(await response.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    const preflight = await fetch(`${standIn.process.apiUrl}/auth/v1/token`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a request without an API key is refused with 401', async () => {
    const response = await fetch(`${standIn.process.apiUrl}/auth/v1/settings`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      message: 'No API key found in request',
      hint: 'No `apikey` request header or url param was found.',
    });
    const withKey = await fetch(`${standIn.process.apiUrl}/auth/v1/health?apikey=${standIn.keys.anonKey}`);
    expect(withKey.status).toBe(200);
  });

  test('getUser and updateUser: metadata is merged, a new password signs out the other sessions', async () => {
    const { email } = await signedUp();
    const first = await signedIn(email);
    const second = await signedIn(email);
    const secondToken = (await second.auth.getSession()).data.session?.access_token;

    const fetched = await first.auth.getUser();
    expect(fetched.data.user?.email).toBe(email.toLowerCase());
    const withData = await first.auth.updateUser({ data: { theme: 'dark', name: 'Ada' } });
    expect(withData.error).toBeNull();
    const withoutName = await first.auth.updateUser({ data: { name: null } });
    expect(withoutName.data.user?.user_metadata).toEqual({ theme: 'dark' });

    const samePassword = await first.auth.updateUser({ password: PASSWORD });
    expect(samePassword.error).toMatchObject({ status: 422, code: 'same_password' });
    const changed = await first.auth.updateUser({ password: 'a brand new passphrase' });
    expect(changed.error).toBeNull();
    expect((await first.auth.getUser()).error).toBeNull();
    const revoked = await standIn.client().auth.getUser(secondToken);
    expect(revoked.error).toMatchObject({ name: 'AuthSessionMissingError' });
    const oldPassword = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(oldPassword.error).toMatchObject({ code: 'invalid_credentials' });
    await signedIn(email, 'a brand new passphrase');
  });

  test('refreshSession rotates the refresh token; an old one reused after the interval is refused', async () => {
    const { session } = await signedUp();
    const second = await refreshed(session.refresh_token);
    expect(second.refresh_token).not.toBe(session.refresh_token);
    // A retry with the parent of the active token gets the same active token back.
    const retried = await standIn.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(retried.data.session?.refresh_token).toBe(second.refresh_token);
    expect((await refreshed(second.refresh_token)).refresh_token).not.toBe(second.refresh_token);

    await sleep(REUSE_INTERVAL_SECONDS * 1000 + 300);
    const reused = await standIn.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const unknown = await standIn.client().auth.refreshSession({ refresh_token: 'abcdefghijkl' });
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  test('signOut scopes: local ends this session, others the rest, global all of them', async () => {
    const { email } = await signedUp();
    const [a, b, c] = [await signedIn(email), await signedIn(email), await signedIn(email)];
    const tokenOf = async (supabase: SupabaseClient) =>
      (await supabase.auth.getSession()).data.session?.access_token ?? '';
    const [tokenA, tokenB, tokenC] = [await tokenOf(a), await tokenOf(b), await tokenOf(c)];
    const userWith = (token: string) => standIn.client().auth.getUser(token);

    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await userWith(tokenA)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await userWith(tokenB)).error).toBeNull();

    expect((await b.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await userWith(tokenC)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await userWith(tokenB)).error).toBeNull();

    const d = await signedIn(email);
    const tokenD = await tokenOf(d);
    expect((await b.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await userWith(tokenB)).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await userWith(tokenD)).error).toMatchObject({ name: 'AuthSessionMissingError' });
  });

  test('logout answers 204 and GET /settings describes e-mail sign-up with autoconfirm', async () => {
    const { session } = await signedUp();
    const logout = await fetch(`${standIn.process.apiUrl}/auth/v1/logout?scope=local`, {
      method: 'POST',
      headers: { apikey: standIn.keys.anonKey, authorization: `Bearer ${session.access_token}` },
    });
    expect(logout.status).toBe(204);
    const afterLogout = await fetch(`${standIn.process.apiUrl}/auth/v1/user`, {
      headers: {
        apikey: standIn.keys.anonKey,
        authorization: `Bearer ${session.access_token}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(afterLogout.status).toBe(403);
    expect(await afterLogout.json()).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    const settings = await fetch(`${standIn.process.apiUrl}/auth/v1/settings`, {
      headers: { apikey: standIn.keys.anonKey },
    });
    expect(await settings.json()).toMatchObject({ mailer_autoconfirm: true, disable_signup: false });
  });
});
