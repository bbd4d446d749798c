import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { latestMailTo, verifyLinkIn } from '../support/mailbox-client.ts';
import { emailCode, standInApiKeys, supabaseClient, UNLIMITED_AUTH_RATES } from '../support/stand-in-auth.ts';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';

const PASSWORD = 'never-log-this-password';
const NEW_PASSWORD = 'nor-this-one-either';
const NONCE_PASSWORD = 'and-not-this-one';

/**
 * Everything the stand-in and the API function print, while people sign up, sign in, enrol TOTP, recover
 * their password and call the API with good and bad credentials, holds none of the secrets involved.
 */
describe('secrets never reach a log line', () => {
  let standIn: StandInProcess;
  const secrets = new Set<string>([PASSWORD, NEW_PASSWORD]);

  beforeAll(async () => {
    standIn = await startStandIn({ env: UNLIMITED_AUTH_RATES });
  });

  afterAll(async () => {
    await standIn.dispose();
  });

  test('through every auth flow and API call', async () => {
    const { anonKey, serviceRoleKey } = await standInApiKeys(standIn);
    const supabase = supabaseClient(standIn.apiUrl, anonKey);
    const email = `logs.${Date.now()}@example.com`;

    const signUp = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    const session = signUp.data.session;
    if (!session) throw new Error('signUp returned no session');
    secrets.add(session.access_token).add(session.refresh_token);

    const wrongPassword = await supabaseClient(standIn.apiUrl, anonKey).auth.signInWithPassword({
      email,
      password: `${PASSWORD}-wrong`,
    });
    expect(wrongPassword.error?.code).toBe('invalid_credentials');
    secrets.add(`${PASSWORD}-wrong`);

    expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await latestMailTo(standIn, email);
    secrets.add(new URL(verifyLinkIn(mail)).searchParams.get('token') ?? '');
    const recoveryCode = await emailCode(standIn, serviceRoleKey, email, 'recovery');
    secrets.add(recoveryCode);
    const recovery = supabaseClient(standIn.apiUrl, anonKey);
    const recovered = await recovery.auth.verifyOtp({ email, token: recoveryCode, type: 'recovery' });
    expect(recovered.error).toBeNull();
    // The new password signs out every other session: the recovery session carries on.
    expect((await recovery.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();

    const enrolled = await recovery.auth.mfa.enroll({ factorType: 'totp' });
    if (!enrolled.data) throw new Error('enroll returned no factor');
    const secret = enrolled.data.totp.secret;
    secrets.add(secret);
    const code = new TOTP({ secret }).generate();
    const verified = await recovery.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code });
    expect(verified.error).toBeNull();
    const upgraded = (await recovery.auth.getSession()).data.session;
    if (!upgraded) throw new Error('no session after the TOTP verify');
    secrets.add(upgraded.access_token).add(upgraded.refresh_token);

    const me = `${standIn.apiUrl}/functions/v1/api/v1/me`;
    expect((await fetch(me, { headers: { Authorization: `Bearer ${upgraded.access_token}` } })).status).toBe(
      200,
    );
    const forged = `${upgraded.access_token.slice(0, -4)}AAAA`;
    secrets.add(forged);
    expect((await fetch(me, { headers: { Authorization: `Bearer ${forged}` } })).status).toBe(401);
    expect(
      (await fetch(me, { headers: { Authorization: `Basic ${btoa(`${email}:${PASSWORD}`)}` } })).status,
    ).toBe(401);

    const output = standIn.output();
    // The API logged the requests above, so the search below reads real log lines.
    expect(output).toMatch(/\/v1\/me.*401|401.*\/v1\/me/);
    expectNoneIn(output);
  });

  test('through reauthentication, an e-mail change and an invitation', async () => {
    const { anonKey, serviceRoleKey } = await standInApiKeys(standIn);
    const supabase = supabaseClient(standIn.apiUrl, anonKey);
    const email = `logs.reauth.${Date.now()}@example.com`;
    const newEmail = `logs.changed.${Date.now()}@example.com`;
    const invited = `logs.invited.${Date.now()}@example.com`;
    expect((await supabase.auth.signUp({ email, password: PASSWORD })).error).toBeNull();

    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const nonce = /\b(\d{6})\b/.exec((await latestMailTo(standIn, email)).text)?.[1] ?? '';
    secrets.add(nonce).add(NONCE_PASSWORD);
    expect((await supabase.auth.updateUser({ password: NONCE_PASSWORD, nonce })).error).toBeNull();

    expect((await supabase.auth.updateUser({ email: newEmail })).error).toBeNull();
    for (const address of [email, newEmail]) {
      secrets.add(
        new URL(verifyLinkIn(await latestMailTo(standIn, address))).searchParams.get('token') ?? '',
      );
    }
    const admin = supabaseClient(standIn.apiUrl, serviceRoleKey).auth.admin;
    expect((await admin.inviteUserByEmail(invited)).error).toBeNull();
    const inviteLink = verifyLinkIn(await latestMailTo(standIn, invited));
    secrets.add(new URL(inviteLink).searchParams.get('token') ?? '');
    expect((await fetch(inviteLink, { redirect: 'manual' })).status).toBe(303);

    expectNoneIn(standIn.output());
  });

  function expectNoneIn(output: string): void {
    for (const value of secrets) {
      expect(value.length).toBeGreaterThanOrEqual(6);
      expect(output, 'a secret appears in the stand-in output').not.toContain(value);
    }
  }
});
