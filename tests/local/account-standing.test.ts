/**
 * Banned and deleted users lose access to the API through the real stand-in: its admin API bans
 * (`ban_duration`, which leaves sessions in place, as GoTrue's does) and deletes (`should_soft_delete`,
 * which keeps the user's row and its API tokens), and the very next request with either credential is 401.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, test } from 'vitest';
import { supabaseClient, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';

describe('banned and deleted users, through the stand-in', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('standing');
  let admin: SupabaseClient['auth']['admin'];

  beforeAll(() => {
    admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
  });

  const api = (path: string) => `${standIn.process.apiUrl}/functions/v1/api/v1${path}`;
  const getMe = (token: string) => fetch(api('/me'), { headers: { Authorization: `Bearer ${token}` } });

  /** A signed-in user with an API token, both of which work. */
  async function signedInUser(): Promise<{ id: string; accessToken: string; apiToken: string }> {
    const email = newEmail();
    const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(created.error).toBeNull();
    const { data, error } = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const accessToken = data.session?.access_token ?? '';
    const response = await fetch(api('/me/tokens'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'CI', scope: 'read' }),
    });
    expect(response.status).toBe(201);
    const apiToken = ((await response.json()) as { token: string }).token;
    expect((await getMe(accessToken)).status).toBe(200);
    expect((await getMe(apiToken)).status).toBe(200);
    return { id: data.user?.id ?? '', accessToken, apiToken };
  }

  async function expectRefused(response: Response): Promise<void> {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  }

  test.each([
    ['banned', (id: string) => admin.updateUserById(id, { ban_duration: '24h' })],
    ['soft-deleted', (id: string) => admin.deleteUser(id, true)],
    ['hard-deleted', (id: string) => admin.deleteUser(id, false)],
  ])('a %s user is 401 with the access token and the API token', async (_action, act) => {
    const user = await signedInUser();
    const { error } = await act(user.id);
    expect(error).toBeNull();
    await expectRefused(await getMe(user.accessToken));
    await expectRefused(await getMe(user.apiToken));
  });

  test('lifting a ban ("none") lets both credentials work again', async () => {
    const user = await signedInUser();
    expect((await admin.updateUserById(user.id, { ban_duration: '24h' })).error).toBeNull();
    await expectRefused(await getMe(user.accessToken));
    expect((await admin.updateUserById(user.id, { ban_duration: 'none' })).error).toBeNull();
    expect((await getMe(user.accessToken)).status).toBe(200);
    expect((await getMe(user.apiToken)).status).toBe(200);
  });
});
