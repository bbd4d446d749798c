import { beforeAll, describe, expect, test } from 'vitest';
import { hashParams, latestMailTo, openLink, verifyLinkIn } from '../support/mailbox-client.ts';
import { supabaseClient, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

describe('admin.inviteUserByEmail (POST /invite), driven by supabase-js', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('invite');
  let siteUrl: string;

  beforeAll(() => {
    siteUrl = `http://localhost:${standIn.process.ports.web}`;
  });

  const admin = () => supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;

  test('creates the user unconfirmed with invited_at and mails a link that confirms and signs in', async () => {
    const email = newEmail();
    const invited = await admin().inviteUserByEmail(email, {
      data: { full_name: 'Ada Invited' },
      redirectTo: siteUrl,
    });
    expect(invited.error).toBeNull();
    expect(invited.data.user).toMatchObject({
      email,
      user_metadata: { full_name: 'Ada Invited' },
      invited_at: expect.any(String),
      confirmation_sent_at: expect.any(String),
    });
    expect(invited.data.user).not.toHaveProperty('email_confirmed_at');

    const mail = await latestMailTo(standIn.process, email);
    expect(mail.subject).toBe('You have been invited');
    const link = verifyLinkIn(mail);
    expect(new URL(link).searchParams.get('type')).toBe('invite');
    expect(new URL(link).searchParams.get('redirect_to')).toBe(siteUrl);

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.origin).toBe(siteUrl);
    const session = hashParams(location);
    expect(session).toMatchObject({ type: 'invite', token_type: 'bearer' });
    const { data } = await standIn.client().auth.getUser(session.access_token);
    expect(data.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
  });

  test('verifyOtp type invite with the code of generateLink confirms and signs in', async () => {
    const email = newEmail();
    const generated = await admin().generateLink({ type: 'invite', email });
    expect(generated.error).toBeNull();
    expect(generated.data.properties?.verification_type).toBe('invite');
    expect(generated.data.user?.invited_at).toEqual(expect.any(String));

    const supabase = standIn.client();
    const verified = await supabase.auth.verifyOtp({
      email,
      token: generated.data.properties?.email_otp ?? '',
      type: 'invite',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect(verified.data.session?.access_token).toEqual(expect.any(String));
  });

  test('an unconfirmed invitee may be invited again; a registered address is 422 email_exists', async () => {
    const email = newEmail();
    expect((await admin().inviteUserByEmail(email)).error).toBeNull();
    expect((await admin().inviteUserByEmail(email)).error).toBeNull();

    const registered = newEmail();
    expect(
      (await standIn.client().auth.signUp({ email: registered, password: 'correct horse battery' })).error,
    ).toBeNull();
    const again = await admin().inviteUserByEmail(registered);
    expect(again.error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
  });

  test('only the service role may invite: the anon key is 403 not_admin', async () => {
    const response = await standIn.callAuth('/invite', {
      method: 'POST',
      token: standIn.keys.anonKey,
      body: { email: newEmail() },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'not_admin' });
  });
});
