import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, test } from 'vitest';
import { hashParams, latestMailTo, mailTo, openLink, verifyLinkIn } from '../support/mailbox-client.ts';
import {
  supabaseClient,
  uniqueEmails,
  UNLIMITED_AUTH_RATES,
  useStandIn,
  type UsedStandIn,
} from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const SINGLE_CONFIRMATION =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** A confirmed user signed in on a client of its own (confirmations on: confirmed through the admin API). */
async function signedIn(standIn: UsedStandIn, email: string): Promise<SupabaseClient> {
  const admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
  expect((await admin.createUser({ email, password: PASSWORD, email_confirm: true })).error).toBeNull();
  const supabase = standIn.client();
  expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  return supabase;
}

async function addressOf(standIn: UsedStandIn, id: string) {
  const { rows } = await standIn.withDatabase((db) =>
    db.query<{ email: string; email_change: string; identity_email: string }>(
      `select u.email, u.email_change, i.identity_data->>'email' as identity_email
       from auth.users u join auth.identities i on i.user_id = u.id and i.provider = 'email'
       where u.id = $1`,
      [id],
    ),
  );
  return rows[0];
}

describe('updateUser({ email }) as hosted does it: confirmations on, secure e-mail change on', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, TASKLANE_AUTH_EMAIL_CONFIRMATIONS: 'on' });
  const newEmail = uniqueEmails('change');
  let siteUrl: string;

  beforeAll(() => {
    siteUrl = `http://localhost:${standIn.process.ports.web}`;
  });

  test('both addresses are mailed; the address changes once both links are followed', async () => {
    const [current, next] = [newEmail(), newEmail()];
    const supabase = await signedIn(standIn, current);

    const asked = await supabase.auth.updateUser({ email: next }, { emailRedirectTo: siteUrl });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ email: current, new_email: next });
    expect(asked.data.user?.email_change_sent_at).toEqual(expect.any(String));
    const userId = asked.data.user?.id ?? '';

    const toNew = await latestMailTo(standIn.process, next);
    const toCurrent = await latestMailTo(standIn.process, current);
    expect(toNew.subject).toBe('Confirm Email Change');
    expect(toNew.text).toContain(`from ${current} to ${next}`);
    expect(toCurrent.subject).toBe('Confirm Email Change');
    const newLink = verifyLinkIn(toNew);
    const currentLink = verifyLinkIn(toCurrent);
    expect(new URL(newLink).searchParams.get('type')).toBe('email_change');
    expect(new URL(currentLink).searchParams.get('redirect_to')).toBe(siteUrl);

    const first = await openLink(newLink);
    expect(first.status).toBe(303);
    expect(hashParams(first.location)).toEqual({ message: SINGLE_CONFIRMATION, sb: '' });
    expect(await addressOf(standIn, userId)).toMatchObject({ email: current, email_change: next });

    const second = await openLink(currentLink);
    const session = hashParams(second.location);
    expect(session).toMatchObject({ type: 'email_change', token_type: 'bearer' });
    expect(await addressOf(standIn, userId)).toEqual({
      email: next,
      email_change: '',
      identity_email: next,
    });
    const { data } = await supabase.auth.getUser(session.access_token);
    expect(data.user?.email).toBe(next);
    expect(data.user).not.toHaveProperty('new_email');
  });

  test('verifyOtp type email_change with the codes of generateLink, one per address', async () => {
    const [current, next] = [newEmail(), newEmail()];
    await signedIn(standIn, current);
    const admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;

    const currentLink = await admin.generateLink({
      type: 'email_change_current',
      email: current,
      newEmail: next,
    });
    expect(currentLink.error).toBeNull();
    expect(currentLink.data.properties).toMatchObject({
      verification_type: 'email_change_current',
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.any(String),
    });
    expect(new URL(currentLink.data.properties?.action_link ?? '').searchParams.get('type')).toBe(
      'email_change',
    );
    expect(currentLink.data.user).toMatchObject({ email: current, new_email: next });
    const newLink = await admin.generateLink({ type: 'email_change_new', email: current, newEmail: next });
    expect(newLink.data.properties?.verification_type).toBe('email_change_new');

    const supabase = standIn.client();
    const first = await supabase.auth.verifyOtp({
      email: current,
      token: currentLink.data.properties?.email_otp ?? '',
      type: 'email_change',
    });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull();
    const second = await supabase.auth.verifyOtp({
      email: next,
      token: newLink.data.properties?.email_otp ?? '',
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(next);
    expect(await mailTo(standIn.process, next)).toHaveLength(0);
  });

  test('an address another user has is 422 email_exists, for updateUser and generateLink', async () => {
    const [current, taken] = [newEmail(), newEmail()];
    const supabase = await signedIn(standIn, current);
    await signedIn(standIn, taken);

    const asked = await supabase.auth.updateUser({ email: taken });
    expect(asked.error).toMatchObject({ status: 422, code: 'email_exists' });
    const admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
    const link = await admin.generateLink({ type: 'email_change_new', email: current, newEmail: taken });
    expect(link.error).toMatchObject({ status: 422, code: 'email_exists' });
    const unknown = await admin.generateLink({
      type: 'email_change_new',
      email: newEmail(),
      newEmail: newEmail(),
    });
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  test('a wrong code is 403 otp_expired and a second request within max_frequency 429', async () => {
    const [current, next] = [newEmail(), newEmail()];
    const supabase = await signedIn(standIn, current);
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
    const again = await supabase.auth.updateUser({ email: next });
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    const wrong = await supabase.auth.verifyOtp({ email: next, token: '000000', type: 'email_change' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });
});

describe('e-mail change with confirmations off (the stand-in default, GoTrue autoconfirm)', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('change-autoconfirm');

  test('both addresses are mailed and either link alone changes the address, as GoTrue', async () => {
    const [current, next] = [newEmail(), newEmail()];
    const supabase = await signedIn(standIn, current);
    const asked = await supabase.auth.updateUser({ email: next });
    expect(asked.error).toBeNull();
    expect(await mailTo(standIn.process, current)).toHaveLength(1);

    const { location } = await openLink(verifyLinkIn(await latestMailTo(standIn.process, next)));
    expect(hashParams(location)).toMatchObject({ type: 'email_change' });
    expect(await addressOf(standIn, asked.data.user?.id ?? '')).toMatchObject({ email: next });
  });
});

describe('e-mail change in the PKCE flow', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('change-pkce');

  test('the link redirects with ?code=, which exchangeCodeForSession trades for the changed user', async () => {
    const [current, next] = [newEmail(), newEmail()];
    const admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
    expect(
      (await admin.createUser({ email: current, password: PASSWORD, email_confirm: true })).error,
    ).toBeNull();
    const supabase = standIn.client('pkce');
    expect((await supabase.auth.signInWithPassword({ email: current, password: PASSWORD })).error).toBeNull();
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();

    const link = verifyLinkIn(await latestMailTo(standIn.process, next));
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_/);
    const { location } = await openLink(link);
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(next);
  });
});

describe('secure e-mail change off', () => {
  const standIn = useStandIn({
    ...UNLIMITED_AUTH_RATES,
    TASKLANE_AUTH_EMAIL_CONFIRMATIONS: 'on',
    TASKLANE_AUTH_SECURE_EMAIL_CHANGE: 'off',
  });
  const newEmail = uniqueEmails('change-insecure');

  test('only the new address is mailed, and its link changes the address', async () => {
    const [current, next] = [newEmail(), newEmail()];
    const supabase = await signedIn(standIn, current);
    const asked = await supabase.auth.updateUser({ email: next });
    expect(asked.error).toBeNull();
    expect(await mailTo(standIn.process, current)).toHaveLength(0);

    const { location } = await openLink(verifyLinkIn(await latestMailTo(standIn.process, next)));
    expect(hashParams(location)).toMatchObject({ type: 'email_change' });
    expect(await addressOf(standIn, asked.data.user?.id ?? '')).toMatchObject({ email: next });
    const admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
    const link = await admin.generateLink({
      type: 'email_change_current',
      email: next,
      newEmail: newEmail(),
    });
    expect(link.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});
