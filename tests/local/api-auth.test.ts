import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';
import { standInApiKeys, supabaseClient, UNLIMITED_AUTH_RATES } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the API function behind the stand-in, with tokens from its Auth', () => {
  let standIn: StandInProcess;
  let anonKey: string;

  beforeAll(async () => {
    standIn = await startStandIn({ env: UNLIMITED_AUTH_RATES });
    anonKey = (await standInApiKeys(standIn)).anonKey;
  });

  afterAll(async () => {
    await standIn.dispose();
  });

  const meUrl = () => `${standIn.apiUrl}/functions/v1/api/v1/me`;

  async function signedUp(displayName: string): Promise<{ supabase: SupabaseClient; accessToken: string }> {
    const supabase = supabaseClient(standIn.apiUrl, anonKey);
    const email = `api-auth.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { display_name: displayName } },
    });
    expect(error).toBeNull();
    if (!data.session) throw new Error('signUp returned no session');
    return { supabase, accessToken: data.session.access_token };
  }

  test('publishes its JWKS without an API key, as hosted Supabase does', async () => {
    const response = await fetch(`${standIn.apiUrl}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { keys: { alg: string }[] };
    expect(body.keys).toEqual([expect.objectContaining({ alg: 'ES256' })]);
  });

  test('GET /v1/me answers 401 problem+json without a token', async () => {
    const response = await fetch(meUrl());
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  test("GET /v1/me answers the signed-up user's account with the access token from supabase-js", async () => {
    const { supabase, accessToken } = await signedUp('Ada Lovelace');
    const { data } = await supabase.auth.getUser();
    const response = await fetch(meUrl(), { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: 'user',
      id: data.user?.id,
      email: data.user?.email,
      display_name: 'Ada Lovelace',
      aal: 'aal1',
      mfa: { enabled: false, factors: [] },
    });
    expect(body.id).toMatch(UUID);
  });

  test('PATCH /v1/me changes the display name through the gateway', async () => {
    const { accessToken } = await signedUp('Grace');
    const response = await fetch(meUrl(), {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ display_name: 'Grace Hopper' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ display_name: 'Grace Hopper' });
  });

  test('after signOut(), the old access token is refused: its session has ended', async () => {
    const { supabase, accessToken } = await signedUp('Leaving Soon');
    const authorized = { headers: { Authorization: `Bearer ${accessToken}` } };
    expect((await fetch(meUrl(), authorized)).status).toBe(200);

    const { error } = await supabase.auth.signOut();
    expect(error).toBeNull();

    const response = await fetch(meUrl(), authorized);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await response.json()).toMatchObject({
      code: 'unauthenticated',
      detail: 'The session has ended (signed out or timed out). Sign in again.',
    });
  });

  test('the anon key is no user', async () => {
    const response = await fetch(meUrl(), { headers: { Authorization: `Bearer ${anonKey}` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });
});
