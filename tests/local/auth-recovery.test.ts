import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, test } from 'vitest';
import { emailTokenHash } from '../../local/auth/email-tokens.ts';
import {
  expectNoCodeIn,
  hashParams,
  latestMailTo,
  mailTo,
  openLink,
  verifyLinkIn,
} from '../support/mailbox-client.ts';
import {
  emailCode,
  supabaseClient,
  uniqueEmails,
  UNLIMITED_AUTH_RATES,
  useStandIn,
} from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

describe('password recovery and e-mail links, driven by supabase-js', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('recover');
  let siteUrl: string;
  let resetUrl: string;

  beforeAll(() => {
    siteUrl = `http://localhost:${standIn.process.ports.web}`;
    resetUrl = `${siteUrl}/reset-password`;
  });

  async function signedUpEmail(): Promise<string> {
    const email = newEmail();
    const { error } = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return email;
  }

  async function expectPassword(email: string, password: string, works: boolean): Promise<void> {
    const { error } = await standIn.client().auth.signInWithPassword({ email, password });
    if (works) expect(error).toBeNull();
    else expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  }

  async function recoveryTokens(userId: string) {
    return standIn.withDatabase(async (db) => {
      const user = await db.query<{ recovery_token: string; recovery_sent_at: Date | null }>(
        'select recovery_token, recovery_sent_at from auth.users where id = $1',
        [userId],
      );
      const tokens = await db.query<{ token_type: string; token_hash: string; relates_to: string }>(
        'select token_type, token_hash, relates_to from auth.one_time_tokens where user_id = $1',
        [userId],
      );
      return { user: user.rows[0], oneTimeTokens: tokens.rows };
    });
  }

  /** POST /token?grant_type=pkce as auth-js sends it, with any verifier. */
  function exchange(authCode: string, verifier: string): Promise<Response> {
    return standIn.callAuth('/token?grant_type=pkce', {
      method: 'POST',
      body: { auth_code: authCode, code_verifier: verifier },
    });
  }

  async function userIdOf(email: string): Promise<string> {
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ id: string }>('select id from auth.users where email = $1', [email]),
    );
    const id = rows[0]?.id;
    if (!id) throw new Error(`no user ${email}`);
    return id;
  }

  test('resetPasswordForEmail mails a link whose 303 carries a recovery session that may set a new password', async () => {
    const email = await signedUpEmail();
    const otherDevice = standIn.client();
    expect((await otherDevice.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const { data, error } = await standIn
      .client()
      .auth.resetPasswordForEmail(email, { redirectTo: resetUrl });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const mail = await latestMailTo(standIn.process, email);
    // Tasklane's template (supabase/templates/recovery.html), with the link and no code.
    expect(mail).toMatchObject({ to: email, subject: 'Reset your Tasklane password' });
    expect(mail.text).toContain(`asked to reset the Tasklane password for ${email}`);
    expectNoCodeIn(mail);
    const link = verifyLinkIn(mail);
    expect(mail.text).toContain(`Choose a new password: ${link}`);
    expect(link).toMatch(
      new RegExp(
        `^${standIn.process.apiUrl}/auth/v1/verify\\?token=[0-9a-f]{56}&type=recovery&redirect_to=${resetUrl}$`,
      ),
    );
    const token = new URL(link).searchParams.get('token');
    const stored = await recoveryTokens(await userIdOf(email));
    expect(stored.user).toMatchObject({ recovery_token: token, recovery_sent_at: expect.any(Date) });
    expect(stored.oneTimeTokens).toEqual([
      { token_type: 'recovery_token', token_hash: token, relates_to: email },
    ]);

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(resetUrl);
    const hash = hashParams(location);
    expect(Object.keys(hash)).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'sb',
      'token_type',
      'type',
    ]);
    expect(hash).toMatchObject({ expires_in: '3600', sb: '', token_type: 'bearer', type: 'recovery' });

    const recovering = standIn.client();
    const session = await recovering.auth.setSession({
      access_token: hash.access_token ?? '',
      refresh_token: hash.refresh_token ?? '',
    });
    expect(session.error).toBeNull();
    expect(session.data.user?.email).toBe(email);
    const claims = await recovering.auth.getClaims(hash.access_token);
    expect(claims.data?.claims.amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);
    expect((await recovering.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();

    await expectPassword(email, PASSWORD, false);
    await expectPassword(email, NEW_PASSWORD, true);
    expect((await otherDevice.auth.getUser()).error).toMatchObject({ name: 'AuthSessionMissingError' });
    expect((await recoveryTokens(await userIdOf(email))).oneTimeTokens).toEqual([]);
  });

  test('the PKCE flow: the link redirects with ?code=, which exchangeCodeForSession trades for a session', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client('pkce');
    expect((await supabase.auth.resetPasswordForEmail(email, { redirectTo: resetUrl })).error).toBeNull();
    const userId = await userIdOf(email);
    const flows = await standIn.withDatabase((db) =>
      db.query<{ auth_code: string; code_challenge_method: string; authentication_method: string }>(
        'select auth_code, code_challenge_method, authentication_method from auth.flow_state where user_id = $1',
        [userId],
      ),
    );
    expect(flows.rows).toEqual([
      { auth_code: expect.any(String), code_challenge_method: 's256', authentication_method: 'recovery' },
    ]);
    const link = verifyLinkIn(await latestMailTo(standIn.process, email));
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56}$/);

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code');
    expect(code).toBe(flows.rows[0]?.auth_code);

    const exchanged = await supabase.auth.exchangeCodeForSession(code ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data).toMatchObject({ redirectType: 'recovery', user: { email } });
    const claims = await supabase.auth.getClaims(exchanged.data.session?.access_token);
    expect(claims.data?.claims.amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);
    expect((await supabase.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    await expectPassword(email, NEW_PASSWORD, true);

    const leftover = await standIn.withDatabase((db) =>
      db.query('select 1 from auth.flow_state where user_id = $1', [userId]),
    );
    expect(leftover.rowCount).toBe(0);
    const again = await exchange(code ?? '', 'v'.repeat(56));
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      code: 'flow_state_not_found',
      message: 'invalid flow state, no valid flow state found',
    });
  });

  test('the token endpoint refuses an unknown auth code, a wrong verifier and an expired flow', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client('pkce');
    await supabase.auth.resetPasswordForEmail(email, { redirectTo: resetUrl });
    const { location } = await openLink(verifyLinkIn(await latestMailTo(standIn.process, email)));
    const code = location.searchParams.get('code') ?? '';

    const unknown = await exchange(crypto.randomUUID(), 'x'.repeat(56));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'flow_state_not_found' });
    const wrongVerifier = await exchange(code, 'y'.repeat(56));
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toEqual({
      code: 'bad_code_verifier',
      message: 'code challenge does not match previously saved code verifier',
    });
    await standIn.withDatabase((db) =>
      db.query(
        `update auth.flow_state set created_at = now() - interval '301 seconds' where auth_code = $1`,
        [code],
      ),
    );
    const expired = await supabase.auth.exchangeCodeForSession(code);
    expect(expired.error).toMatchObject({ status: 422, code: 'flow_state_expired' });
  });

  test("verifyOtp with a recovery code (generateLink's; the mail has none) signs in; the code is single use", async () => {
    const email = await signedUpEmail();
    const code = await emailCode(standIn.process, standIn.keys.serviceRoleKey, email, 'recovery');
    const supabase = standIn.client();
    const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: 'bearer', user: { email } });
    expect((await supabase.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();

    const reused = await standIn.client().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(reused.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
  });

  test('a wrong code, a used link and an expired link are otp_expired', async () => {
    const email = await signedUpEmail();
    await standIn.client().auth.resetPasswordForEmail(email, { redirectTo: resetUrl });
    const mail = await latestMailTo(standIn.process, email);
    const linkToken = new URL(verifyLinkIn(mail)).searchParams.get('token');
    const wrongCode = emailTokenHash(email, '000000') === linkToken ? '111111' : '000000';
    const wrong = await standIn.client().auth.verifyOtp({ email, token: wrongCode, type: 'recovery' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const wrongHash = await standIn.client().auth.verifyOtp({ token_hash: 'f'.repeat(56), type: 'recovery' });
    expect(wrongHash.error).toMatchObject({ status: 403, code: 'otp_expired' });

    const link = verifyLinkIn(mail);
    expect((await openLink(link)).status).toBe(303);
    const used = await openLink(link);
    expect(used.status).toBe(303);
    expect(`${used.location.origin}${used.location.pathname}`).toBe(resetUrl);
    expect(used.location.hash).toBe(
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=',
    );

    await new Promise((resolve) => setTimeout(resolve, 1100)); // max_frequency is 1 s
    await standIn.client().auth.resetPasswordForEmail(email, { redirectTo: resetUrl });
    const fresh = verifyLinkIn(await latestMailTo(standIn.process, email));
    await standIn.withDatabase((db) =>
      db.query(`update auth.users set recovery_sent_at = now() - interval '2 hours' where email = $1`, [
        email,
      ]),
    );
    expect(hashParams((await openLink(fresh)).location)).toMatchObject({ error_code: 'otp_expired' });
  });

  test('a second request within max_frequency is over_email_send_rate_limit', async () => {
    const email = await signedUpEmail();
    expect((await standIn.client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const tooSoon = await standIn.client().auth.resetPasswordForEmail(email);
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(await mailTo(standIn.process, email)).toHaveLength(1);
  });

  test('an unknown e-mail still answers 200 {} and sends nothing', async () => {
    const email = `nobody.${Date.now()}@example.com`;
    const response = await fetch(`${standIn.process.apiUrl}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: standIn.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(await mailTo(standIn.process, email)).toEqual([]);
  });

  test('a redirect_to outside the site URL and its allow-list falls back to the site URL', async () => {
    const email = await signedUpEmail();
    await standIn
      .client()
      .auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example.com/steal' });
    const link = verifyLinkIn(await latestMailTo(standIn.process, email));
    expect(new URL(link).searchParams.get('redirect_to')).toBe(siteUrl);
    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.origin).toBe(siteUrl);
    expect(hashParams(location)).toMatchObject({ type: 'recovery' });
  });

  test('the link works without an API key, as e-mail links must; other endpoints still need one', async () => {
    const noKey = await fetch(`${standIn.process.apiUrl}/auth/v1/verify?token=abc&type=recovery`, {
      redirect: 'manual',
    });
    expect(noKey.status).toBe(303);
    const recover = await fetch(`${standIn.process.apiUrl}/auth/v1/recover`, { method: 'POST' });
    expect(recover.status).toBe(401);
  });

  describe('admin.generateLink', () => {
    let admin: SupabaseClient;

    beforeAll(() => {
      admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey);
    });

    test('a recovery link for an existing user, without sending mail', async () => {
      const email = await signedUpEmail();
      const { data, error } = await admin.auth.admin.generateLink({
        type: 'recovery',
        email,
        options: { redirectTo: resetUrl },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, recovery_sent_at: expect.any(String) });
      expect(data.properties).toMatchObject({
        email_otp: expect.stringMatching(/^\d{6}$/),
        hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
        verification_type: 'recovery',
        redirect_to: resetUrl,
      });
      expect(data.properties?.action_link).toBe(
        `${standIn.process.apiUrl}/auth/v1/verify?token=${data.properties?.hashed_token}&type=recovery&redirect_to=${resetUrl}`,
      );
      expect(await mailTo(standIn.process, email)).toEqual([]);
      const { location } = await openLink(data.properties?.action_link ?? '');
      expect(hashParams(location)).toMatchObject({ type: 'recovery', token_type: 'bearer' });
    });

    test('a signup link creates an unconfirmed user whom the link confirms', async () => {
      const email = `generated.${Date.now()}@example.com`;
      const { data, error } = await admin.auth.admin.generateLink({
        type: 'signup',
        email,
        password: PASSWORD,
        options: { data: { display_name: 'Gen' } },
      });
      expect(error).toBeNull();
      expect(data.user?.email_confirmed_at).toBeUndefined();
      expect(data.user?.user_metadata).toEqual({ display_name: 'Gen' });
      expect(data.properties?.verification_type).toBe('signup');
      const unconfirmed = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(unconfirmed.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });

      const verified = await standIn.client().auth.verifyOtp({
        token_hash: data.properties?.hashed_token ?? '',
        type: 'signup',
      });
      expect(verified.error).toBeNull();
      expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));
      await expectPassword(email, PASSWORD, true);
    });

    test('a recovery link for an unknown user is user_not_found', async () => {
      const { error } = await admin.auth.admin.generateLink({
        type: 'recovery',
        email: `ghost.${Date.now()}@example.com`,
      });
      expect(error).toMatchObject({ status: 404, code: 'user_not_found' });
    });

    test('the anon key and user tokens are not_admin', async () => {
      const email = await signedUpEmail();
      const anon = await standIn.client().auth.admin.generateLink({ type: 'recovery', email });
      expect(anon.error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
      const { data } = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
      const asUser = await fetch(`${standIn.process.apiUrl}/auth/v1/admin/generate_link`, {
        method: 'POST',
        headers: {
          apikey: standIn.keys.anonKey,
          authorization: `Bearer ${data.session?.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ type: 'recovery', email }),
      });
      expect(asUser.status).toBe(403);
      expect(await asUser.json()).toMatchObject({ error_code: 'not_admin' });
      const withSecretKey = await supabaseClient(
        standIn.process.apiUrl,
        standIn.keys.secretKey,
      ).auth.admin.generateLink({
        type: 'magiclink',
        email,
      });
      expect(withSecretKey.error).toBeNull();
      expect(withSecretKey.data.properties?.verification_type).toBe('magiclink');
    });
  });
});
