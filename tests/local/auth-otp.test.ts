import { beforeAll, describe, expect, test } from 'vitest';
import {
  expectNoCodeIn,
  hashParams,
  latestMailTo,
  mailTo,
  openLink,
  verifyLinkIn,
} from '../support/mailbox-client.ts';
import { emailCode, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';

describe('passwordless e-mail sign-in (signInWithOtp), driven by supabase-js', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('otp');
  let siteUrl: string;

  beforeAll(() => {
    siteUrl = `http://localhost:${standIn.process.ports.web}`;
  });

  async function signedUpEmail(): Promise<string> {
    const email = newEmail();
    const { error } = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return email;
  }

  /** The mail carries only the link, as GoTrue's default does; the code comes from generateLink instead. */
  function magicLinkCode(email: string): Promise<string> {
    return emailCode(standIn.process, standIn.keys.serviceRoleKey, email, 'magiclink');
  }

  async function usersNamed(email: string) {
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ id: string; email_confirmed_at: Date | null; raw_user_meta_data: unknown }>(
        'select id, email_confirmed_at, raw_user_meta_data from auth.users where email = $1',
        [email],
      ),
    );
    return rows;
  }

  test('a known address is mailed a magic link (no code) whose 303 carries a session in the hash', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client();
    const answer = await supabase.auth.signInWithOtp({ email, options: { emailRedirectTo: siteUrl } });
    expect(answer).toEqual({ data: { user: null, session: null, messageId: undefined }, error: null });

    const mail = await latestMailTo(standIn.process, email);
    expect(mail.subject).toBe('Your sign-in link');
    expectNoCodeIn(mail);
    const link = verifyLinkIn(mail);
    expect(new URL(link).searchParams.get('type')).toBe('magiclink');
    expect(new URL(link).searchParams.get('redirect_to')).toBe(siteUrl);

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.origin).toBe(siteUrl);
    const session = hashParams(location);
    expect(session).toMatchObject({ type: 'magiclink', token_type: 'bearer' });
    const { data, error } = await supabase.auth.getUser(session.access_token);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    const claims = await supabase.auth.getClaims(session.access_token);
    expect(claims.data?.claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);

    const reopened = await openLink(link);
    expect(hashParams(reopened.location)).toMatchObject({ error_code: 'otp_expired' });
  });

  test('verifyOtp with a magic-link code, type email, signs in', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client();
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const token = await magicLinkCode(email);

    const verified = await supabase.auth.verifyOtp({ email, token, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
    const claims = await supabase.auth.getClaims(verified.data.session?.access_token);
    expect(claims.data?.claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);
  });

  test('the code also verifies as type magiclink, and only once', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client();
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const token = await magicLinkCode(email);

    expect((await supabase.auth.verifyOtp({ email, token, type: 'magiclink' })).error).toBeNull();
    const again = await supabase.auth.verifyOtp({ email, token, type: 'email' });
    expect(again.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
  });

  test('a wrong code and an expired one are refused with 403 otp_expired', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client();
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const token = await magicLinkCode(email);
    const wrong = token === '000000' ? '111111' : '000000';

    const wrongAnswer = await supabase.auth.verifyOtp({ email, token: wrong, type: 'email' });
    expect(wrongAnswer.error).toMatchObject({ status: 403, code: 'otp_expired' });
    await standIn.withDatabase((db) =>
      db.query(`update auth.users set recovery_sent_at = now() - interval '2 hours' where email = $1`, [
        email,
      ]),
    );
    const expired = await supabase.auth.verifyOtp({ email, token, type: 'email' });
    expect(expired.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  test('the link in the PKCE flow redirects with ?code=, which exchangeCodeForSession trades for a session', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client('pkce');
    const answer = await supabase.auth.signInWithOtp({ email, options: { emailRedirectTo: siteUrl } });
    expect(answer.error).toBeNull();
    const link = verifyLinkIn(await latestMailTo(standIn.process, email));
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56}$/);

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.origin).toBe(siteUrl);
    const code = location.searchParams.get('code') ?? '';
    const exchanged = await supabase.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);

    const reopened = await openLink(link);
    expect(reopened.location.searchParams.get('error_code')).toBe('otp_expired');
  });

  test('an unknown address is signed up and mailed, with the same answer as a known one', async () => {
    const known = await signedUpEmail();
    const unknown = newEmail();
    const knownAnswer = await standIn.callAuth('/otp', { method: 'POST', body: { email: known } });
    const unknownAnswer = await standIn.callAuth('/otp', {
      method: 'POST',
      body: { email: unknown, data: { display_name: 'Newcomer' } },
    });
    expect([knownAnswer.status, unknownAnswer.status]).toEqual([200, 200]);
    expect(await unknownAnswer.json()).toEqual(await knownAnswer.json());

    const [user] = await usersNamed(unknown);
    expect(user).toMatchObject({
      email_confirmed_at: expect.any(Date),
      raw_user_meta_data: { display_name: 'Newcomer' },
    });
    const { location } = await openLink(verifyLinkIn(await latestMailTo(standIn.process, unknown)));
    const { data } = await standIn.client().auth.getUser(hashParams(location).access_token);
    expect(data.user?.id).toBe(user?.id);
  });

  test('shouldCreateUser false refuses an unknown address with 422 otp_disabled and creates nobody', async () => {
    const email = newEmail();
    const { error } = await standIn
      .client()
      .auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    expect(await usersNamed(email)).toEqual([]);
    expect(await mailTo(standIn.process, email)).toEqual([]);

    const known = await signedUpEmail();
    const allowed = await standIn
      .client()
      .auth.signInWithOtp({ email: known, options: { shouldCreateUser: false } });
    expect(allowed.error).toBeNull();
  });

  test('a body with neither an address nor a phone, or with a phone, is refused as GoTrue does', async () => {
    const empty = await standIn.callAuth('/otp', { method: 'POST', body: {} });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      code: 'validation_failed',
      message: 'One of email or phone must be set',
    });
    const phone = await standIn.callAuth('/otp', { method: 'POST', body: { phone: '+15555550100' } });
    expect(phone.status).toBe(400);
    expect(await phone.json()).toMatchObject({ code: 'phone_provider_disabled' });
  });

  test('a second mail to the same address within max_frequency is refused with 429 over_email_send_rate_limit', async () => {
    const email = await signedUpEmail();
    const supabase = standIn.client();
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const second = await supabase.auth.signInWithOtp({ email });
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(await mailTo(standIn.process, email)).toHaveLength(1);
  });
});

describe('signInWithOtp with e-mail confirmations on', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, TASKLANE_AUTH_EMAIL_CONFIRMATIONS: 'on' });
  const newEmail = uniqueEmails('otp-confirm');

  test('an unknown address gets the confirmation mail, whose PKCE link confirms and signs in', async () => {
    const email = newEmail();
    const supabase = standIn.client('pkce');
    expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ email_confirmed_at: Date | null }>(
        'select email_confirmed_at from auth.users where email = $1',
        [email],
      ),
    );
    expect(rows).toEqual([{ email_confirmed_at: null }]);

    const mail = await latestMailTo(standIn.process, email);
    expect(mail.subject).toBe('Confirm your e-mail address for Tasklane');
    const link = verifyLinkIn(mail);
    expect(new URL(link).searchParams.get('type')).toBe('signup');
    const { location } = await openLink(link);
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
  });
});
