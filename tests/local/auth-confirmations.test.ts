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

describe('sign-up with e-mail confirmations on (TASKLANE_AUTH_EMAIL_CONFIRMATIONS=on)', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, TASKLANE_AUTH_EMAIL_CONFIRMATIONS: 'on' });
  const newEmail = uniqueEmails('confirm');
  let welcomeUrl: string;

  beforeAll(() => {
    welcomeUrl = `http://localhost:${standIn.process.ports.web}/welcome`;
  });

  async function confirmedAt(email: string): Promise<Date | null> {
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ email_confirmed_at: Date | null }>(
        'select email_confirmed_at from auth.users where email = $1',
        [email],
      ),
    );
    return rows[0]?.email_confirmed_at ?? null;
  }

  test('GET /settings reports mailer_autoconfirm false', async () => {
    const response = await fetch(`${standIn.process.apiUrl}/auth/v1/settings`, {
      headers: { apikey: standIn.keys.anonKey },
    });
    expect(await response.json()).toMatchObject({ mailer_autoconfirm: false });
  });

  test('signUp answers the user without a session, mails a link, and password sign-in waits for it', async () => {
    const email = newEmail();
    const { data, error } = await standIn.client().auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: welcomeUrl, data: { display_name: 'Ada' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      confirmation_sent_at: expect.any(String),
      user_metadata: { display_name: 'Ada' },
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(await confirmedAt(email)).toBeNull();

    const early = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    const mail = await latestMailTo(standIn.process, email);
    // Tasklane's template (supabase/templates/confirmation.html), with the link and no code.
    expect(mail.subject).toBe('Confirm your e-mail address for Tasklane');
    expect(mail.text).toContain(`Welcome to Tasklane. Confirm that ${email} is your address`);
    expectNoCodeIn(mail);
    const link = verifyLinkIn(mail);
    expect(mail.text).toContain(`Confirm and sign in: ${link}`);
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    expect(link).toContain(`&type=signup&redirect_to=${welcomeUrl}`);
    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(welcomeUrl);
    expect(hashParams(location)).toMatchObject({ type: 'signup', token_type: 'bearer' });

    expect(await confirmedAt(email)).toEqual(expect.any(Date));
    const identity = await standIn.withDatabase((db) =>
      db.query<{ verified: boolean }>(
        `select (identity_data ->> 'email_verified')::boolean as verified from auth.identities where email = $1`,
        [email],
      ),
    );
    expect(identity.rows).toEqual([{ verified: true }]);
    const signedIn = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect((await openLink(link)).location.hash).toContain('error_code=otp_expired');
  });

  test("verifyOtp with a code (generateLink's; the mail has none) confirms too, with type signup or email", async () => {
    const first = newEmail();
    await standIn.client().auth.signUp({ email: first, password: PASSWORD });
    const bySignup = await standIn.client().auth.verifyOtp({
      email: first,
      token: await emailCode(standIn.process, standIn.keys.serviceRoleKey, first, 'signup'),
      type: 'signup',
    });
    expect(bySignup.error).toBeNull();
    expect(bySignup.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const second = newEmail();
    await standIn.client().auth.signUp({ email: second, password: PASSWORD });
    const byEmail = await standIn.client().auth.verifyOtp({
      email: second,
      token: await emailCode(standIn.process, standIn.keys.serviceRoleKey, second, 'signup'),
      type: 'email',
    });
    expect(byEmail.error).toBeNull();
    expect(await confirmedAt(second)).toEqual(expect.any(Date));
  });

  test('resend mails a new confirmation link to where the sign-up asked, at most once per max_frequency', async () => {
    const email = newEmail();
    await standIn
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: welcomeUrl } });
    const tooSoon = await standIn.client().auth.resend({ type: 'signup', email });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(tooSoon.error?.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );

    await new Promise((resolve) => setTimeout(resolve, 1100)); // max_frequency is 1 s
    const resent = await standIn
      .client()
      .auth.resend({ type: 'signup', email, options: { emailRedirectTo: welcomeUrl } });
    expect(resent.error).toBeNull();
    const mails = await mailTo(standIn.process, email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Confirm your e-mail address for Tasklane',
      'Confirm your e-mail address for Tasklane',
    ]);
    const [latest, first] = mails.map((mail) => verifyLinkIn(mail));
    expect(latest).not.toBe(first);
    expect(latest).toContain(`&type=signup&redirect_to=${welcomeUrl}`);
    // Only the newest link works.
    expect((await openLink(first ?? '')).location.hash).toContain('error_code=otp_expired');
    const { location } = await openLink(latest ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(welcomeUrl);
    expect(await confirmedAt(email)).toEqual(expect.any(Date));

    // Confirmed or unknown: {} and no mail, as for a recovery.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await standIn.client().auth.resend({ type: 'signup', email })).error).toBeNull();
    const stranger = newEmail();
    expect((await standIn.client().auth.resend({ type: 'signup', email: stranger })).error).toBeNull();
    expect(await mailTo(standIn.process, email)).toHaveLength(2);
    expect(await mailTo(standIn.process, stranger)).toEqual([]);
  });

  test('the PKCE flow confirms through ?code= and exchangeCodeForSession', async () => {
    const email = newEmail();
    const supabase = standIn.client('pkce');
    const signUp = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: welcomeUrl },
    });
    expect(signUp.data.session).toBeNull();
    const link = verifyLinkIn(await latestMailTo(standIn.process, email));
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_/);
    const { location } = await openLink(link);
    const code = location.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    const { data, error } = await supabase.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    const claims = await supabase.auth.getClaims(data.session?.access_token);
    expect(claims.data?.claims.amr).toEqual([{ method: 'email/signup', timestamp: expect.any(Number) }]);
  });

  test('signing up again: a pending address gets a new link, a confirmed one a look-alike user and no mail', async () => {
    const email = newEmail();
    const first = await standIn.client().auth.signUp({ email, password: PASSWORD });
    const firstLink = verifyLinkIn(await latestMailTo(standIn.process, email));
    await new Promise((resolve) => setTimeout(resolve, 1100)); // max_frequency is 1 s
    const again = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(first.data.user?.id);
    expect(await mailTo(standIn.process, email)).toHaveLength(2);
    expect(hashParams((await openLink(firstLink)).location)).toMatchObject({ error_code: 'otp_expired' });
    expect((await openLink(verifyLinkIn(await latestMailTo(standIn.process, email)))).status).toBe(303);
    expect(await confirmedAt(email)).toEqual(expect.any(Date));

    const confirmedAgain = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(confirmedAgain.error).toBeNull();
    expect(confirmedAgain.data.session).toBeNull();
    expect(confirmedAgain.data.user?.id).not.toBe(first.data.user?.id);
    expect(confirmedAgain.data.user?.identities).toEqual([]);
    expect(await mailTo(standIn.process, email)).toHaveLength(2);
  });
});
