import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { supabaseClient, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'admin mfa password';

describe('the stand-in Auth service: auth.admin.mfa lists and deletes a user’s factors', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('admin-mfa');
  const admin = () => supabaseClient(standIn.process.apiUrl, standIn.keys.secretKey).auth.admin;

  /** A signed-up user whose session verified a TOTP factor (aal2), and an unverified second factor. */
  async function userWithFactors() {
    const supabase = standIn.client();
    const { data, error } = await supabase.auth.signUp({ email: newEmail(), password: PASSWORD });
    expect(error).toBeNull();
    const userId = data.user?.id ?? '';
    const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    const factorId = enrolled.data?.id ?? '';
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.data?.totp.secret ?? '') }).generate();
    expect((await supabase.auth.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();
    const second = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' });
    return { supabase, userId, factorId, unverifiedId: second.data?.id ?? '' };
  }

  async function claimsOf(supabase: SupabaseClient) {
    const refreshToken = (await supabase.auth.getSession()).data.session?.refresh_token ?? '';
    const refreshed = await standIn.client().auth.refreshSession({ refresh_token: refreshToken });
    expect(refreshed.error).toBeNull();
    return (await standIn.client().auth.getClaims(refreshed.data.session?.access_token)).data?.claims;
  }

  test('listFactors answers every factor of the user, as GET /user shows them', async () => {
    const { supabase, userId, factorId, unverifiedId } = await userWithFactors();
    const { data, error } = await admin().mfa.listFactors({ userId });
    expect(error).toBeNull();
    const own = (await supabase.auth.getUser()).data.user?.factors;
    expect(data?.factors).toEqual(own);
    expect(data?.factors).toEqual([
      {
        id: factorId,
        friendly_name: 'Phone',
        factor_type: 'totp',
        status: 'verified',
        phone: '',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        last_challenged_at: expect.any(String),
      },
      expect.objectContaining({ id: unverifiedId, friendly_name: 'Tablet', status: 'unverified' }),
    ]);

    const newcomer = await standIn.client().auth.signUp({ email: newEmail(), password: PASSWORD });
    expect(await admin().mfa.listFactors({ userId: newcomer.data.user?.id ?? '' })).toEqual({
      data: { factors: [] },
      error: null,
    });
  });

  test('deleteFactor answers the factor and brings the user’s sessions down to aal1', async () => {
    const { supabase, userId, factorId } = await userWithFactors();
    const listed = await admin().mfa.listFactors({ userId });
    const { data, error } = await admin().mfa.deleteFactor({ userId, id: factorId });
    expect(error).toBeNull();
    // auth-js hands back GoTrue's body (the factor) wrapped once more, as its _request does without xform.
    expect(data).toEqual({ data: listed.data?.factors[0], error: null });
    expect(
      (await admin().mfa.listFactors({ userId })).data?.factors.map((factor) => factor.id),
    ).not.toContain(factorId);
    const claims = await claimsOf(supabase);
    expect(claims).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
    expect(claims?.amr).toHaveLength(1);
  });

  test('an unknown user or factor is a 404; a factor of someone else is unknown', async () => {
    const ada = await userWithFactors();
    const bob = await userWithFactors();
    const unknownId = '00000000-0000-4000-8000-000000000000';
    expect((await admin().mfa.listFactors({ userId: unknownId })).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User not found',
    });
    expect((await admin().mfa.deleteFactor({ userId: ada.userId, id: unknownId })).error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });
    expect((await admin().mfa.deleteFactor({ userId: ada.userId, id: bob.factorId })).error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
    });
    expect((await admin().mfa.listFactors({ userId: bob.userId })).data?.factors).toHaveLength(2);
  });

  test('only the secret (service) key may: the anon key and a user are 403 not_admin', async () => {
    const { supabase, userId, factorId } = await userWithFactors();
    for (const client of [standIn.client(), supabase]) {
      expect((await client.auth.admin.mfa.listFactors({ userId })).error).toMatchObject({
        status: 403,
        code: 'not_admin',
        message: 'User not allowed',
      });
    }
    const asUser = await standIn.callAuth(`/admin/users/${userId}/factors/${factorId}`, {
      method: 'DELETE',
      token: (await supabase.auth.getSession()).data.session?.access_token,
    });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
    const legacyServiceKey = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
    expect((await legacyServiceKey.mfa.listFactors({ userId })).data?.factors).toHaveLength(2);
  });
});
