import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, test } from 'vitest';
import type { MailboxMessage } from '../../local/mailbox/mailbox.ts';
import { latestMailTo, mailTo } from '../support/mailbox-client.ts';
import {
  uniqueEmails,
  UNLIMITED_AUTH_RATES,
  useStandIn,
  type UsedStandIn,
} from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const OTHER_PASSWORD = 'yet another passphrase';

/** A user signed up and signed in on a client of its own. */
async function signedIn(standIn: UsedStandIn, email: string): Promise<SupabaseClient> {
  const supabase = standIn.client();
  expect((await supabase.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
  expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  return supabase;
}

/** GoTrue asks for a nonce only when the session is more than 24 hours old. */
async function ageSessions(standIn: UsedStandIn, email: string): Promise<void> {
  await standIn.withDatabase((db) =>
    db.query(
      `update auth.sessions set created_at = now() - interval '25 hours'
       where user_id = (select id from auth.users where email = $1)`,
      [email],
    ),
  );
}

function codeIn(mail: MailboxMessage): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

async function passwordWorks(standIn: UsedStandIn, email: string, password: string): Promise<boolean> {
  const { error } = await standIn.client().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('reauthenticate and updateUser({ password, nonce }) with secure password change on', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, TASKLANE_AUTH_SECURE_PASSWORD_CHANGE: 'on' });
  const newEmail = uniqueEmails('reauth');

  test('reauthenticate mails a code that, as the nonce, lets an old session change the password once', async () => {
    const email = newEmail();
    const supabase = await signedIn(standIn, email);
    await ageSessions(standIn, email);

    const answer = await supabase.auth.reauthenticate();
    expect(answer).toEqual({ data: { user: null, session: null }, error: null });
    const mail = await latestMailTo(standIn.process, email);
    expect(mail.subject).toBe('Confirm reauthentication');
    const nonce = codeIn(mail);
    const { rows } = await standIn.withDatabase((db) =>
      db.query<{ sent: boolean; token_type: string }>(
        `select u.reauthentication_sent_at is not null as sent, t.token_type
         from auth.users u join auth.one_time_tokens t on t.user_id = u.id where u.email = $1`,
        [email],
      ),
    );
    expect(rows).toEqual([{ sent: true, token_type: 'reauthentication_token' }]);

    const changed = await supabase.auth.updateUser({ password: NEW_PASSWORD, nonce });
    expect(changed.error).toBeNull();
    expect(await passwordWorks(standIn, email, NEW_PASSWORD)).toBe(true);

    const again = await supabase.auth.updateUser({ password: OTHER_PASSWORD, nonce });
    expect(again.error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
      message: 'Nonce has expired or is invalid',
    });
  });

  test('an old session without a nonce gets 400 reauthentication_needed, with a wrong one 422', async () => {
    const email = newEmail();
    const supabase = await signedIn(standIn, email);
    await ageSessions(standIn, email);

    const missing = await supabase.auth.updateUser({ password: NEW_PASSWORD });
    expect(missing.error).toMatchObject({
      status: 400,
      code: 'reauthentication_needed',
      message: 'Password update requires reauthentication',
    });
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const nonce = codeIn(await latestMailTo(standIn.process, email));
    const wrong = await supabase.auth.updateUser({
      password: NEW_PASSWORD,
      nonce: nonce === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect(await passwordWorks(standIn, email, PASSWORD)).toBe(true);
  });

  test('a session younger than 24 hours changes the password without a nonce, as GoTrue', async () => {
    const email = newEmail();
    const supabase = await signedIn(standIn, email);
    expect((await supabase.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    expect(await passwordWorks(standIn, email, NEW_PASSWORD)).toBe(true);
  });

  test('a second reauthenticate within max_frequency is 429 and sends nothing', async () => {
    const email = newEmail();
    const supabase = await signedIn(standIn, email);
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const second = await supabase.auth.reauthenticate();
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(await mailTo(standIn.process, email)).toHaveLength(1);
  });

  test('reauthenticate without a session is refused with 401 no_authorization', async () => {
    const response = await standIn.callAuth('/reauthenticate');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'no_authorization' });
  });
});

describe('secure password change off (the default, as on hosted Supabase)', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('reauth-off');

  test('an old session changes the password without a nonce', async () => {
    const email = newEmail();
    const supabase = await signedIn(standIn, email);
    await ageSessions(standIn, email);
    expect((await supabase.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    expect(await passwordWorks(standIn, email, NEW_PASSWORD)).toBe(true);
  });
});
