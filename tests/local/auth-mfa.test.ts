import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn, type AuthCall } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const BASE32_SECRET = /^[A-Z2-7]{32}$/;

interface Enrolled {
  factorId: string;
  secret: string;
}

describe('the stand-in Auth service: MFA with TOTP, driven by supabase-js', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('mfa');

  /** A new user, signed in with the password on a client of its own. */
  async function signedUpUser(): Promise<{ email: string; supabase: SupabaseClient }> {
    const email = newEmail();
    const supabase = standIn.client();
    const { error } = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { email, supabase };
  }

  async function signedIn(email: string): Promise<SupabaseClient> {
    const supabase = standIn.client();
    const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return supabase;
  }

  async function enrolled(supabase: SupabaseClient, friendlyName?: string): Promise<Enrolled> {
    const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName });
    expect(error).toBeNull();
    if (!data) throw new Error('enroll returned no factor');
    return { factorId: data.id, secret: data.totp.secret };
  }

  /** A user whose session passed a TOTP verification (aal2), with the factor it verified. */
  async function userWithVerifiedFactor() {
    const user = await signedUpUser();
    const factor = await enrolled(user.supabase);
    const { error } = await user.supabase.auth.mfa.challengeAndVerify({
      factorId: factor.factorId,
      code: currentCode(factor.secret),
    });
    expect(error).toBeNull();
    return { ...user, factor };
  }

  function currentCode(secret: string): string {
    return new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  }

  /** A six-digit code that is none of the codes the ±1-step window accepts right now. */
  function wrongCode(secret: string): string {
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const accepted = [-30_000, 0, 30_000].map((offset) => totp.generate({ timestamp: Date.now() + offset }));
    return ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code)) ?? '444444';
  }

  async function accessToken(supabase: SupabaseClient): Promise<string> {
    return (await supabase.auth.getSession()).data.session?.access_token ?? '';
  }

  /** A raw call to /auth/v1, with its JSON answer. */
  async function callAuth(
    path: string,
    call: AuthCall,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await standIn.callAuth(path, call);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  test('enroll answers an unverified TOTP factor: an SVG QR code, a base32 secret and the key URI', async () => {
    const { email, supabase } = await signedUpUser();
    const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: expect.any(String), type: 'totp', friendly_name: 'Phone' });
    expect(data?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[\s\S]*<\/svg>\s*$/);
    // auth-js does not encode the markup: a `#` would cut the data URI short in a browser.
    expect(data?.totp.qr_code).not.toContain('#');
    expect(data?.totp.secret).toMatch(BASE32_SECRET);
    const issuer = new URL(standIn.process.webUrl).host;
    expect(data?.totp.uri).toBe(
      `otpauth://totp/${issuer}:${email}?algorithm=SHA1&digits=6&issuer=${encodeURIComponent(issuer)}` +
        `&period=30&secret=${data?.totp.secret}`,
    );

    const factors = await supabase.auth.mfa.listFactors();
    expect(factors.data?.all).toEqual([
      expect.objectContaining({
        id: data?.id,
        status: 'unverified',
        factor_type: 'totp',
        friendly_name: 'Phone',
      }),
    ]);
    expect(factors.data?.totp).toEqual([]);
    const stored = await standIn.withDatabase((db) =>
      db.query<{ secret: string; status: string }>(
        'select secret, status from auth.mfa_factors where id = $1',
        [data?.id],
      ),
    );
    expect(stored.rows).toEqual([{ secret: data?.totp.secret, status: 'unverified' }]);
  });

  test('challenge and verify with the current code raise the session to aal2 with a totp amr claim', async () => {
    const { supabase } = await signedUpUser();
    const factor = await enrolled(supabase, 'Authenticator');
    const before = (await supabase.auth.getSession()).data.session;
    const challenge = await supabase.auth.mfa.challenge({ factorId: factor.factorId });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
    const expiresIn = (challenge.data?.expires_at ?? 0) - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(290);
    expect(expiresIn).toBeLessThanOrEqual(300);

    const verified = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId: challenge.data?.id ?? '',
      code: currentCode(factor.secret),
    });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(verified.data?.refresh_token).not.toBe(before?.refresh_token);
    expect(verified.data?.user.factors).toEqual([
      expect.objectContaining({ id: factor.factorId, status: 'verified', factor_type: 'totp' }),
    ]);

    const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const claims = (await supabase.auth.getClaims()).data?.claims;
    expect(claims?.aal).toBe('aal2');
    expect(claims?.amr).toEqual([
      { method: 'totp', timestamp: expect.any(Number) },
      { method: 'password', timestamp: expect.any(Number) },
    ]);
    expect(claims?.session_id).toBe(
      JSON.parse(Buffer.from(before?.access_token.split('.')[1] ?? '', 'base64url').toString()).session_id,
    );

    const listed = await supabase.auth.mfa.listFactors();
    expect(listed.data?.totp).toEqual([
      expect.objectContaining({ id: factor.factorId, status: 'verified', friendly_name: 'Authenticator' }),
    ]);
    const rows = await standIn.withDatabase(async (db) => ({
      challenge: await db.query('select verified_at from auth.mfa_challenges where id = $1', [
        challenge.data?.id,
      ]),
      session: await db.query('select aal, factor_id from auth.sessions where id = $1', [claims?.session_id]),
    }));
    expect(rows.challenge.rows[0]?.verified_at).toBeInstanceOf(Date);
    expect(rows.session.rows).toEqual([{ aal: 'aal2', factor_id: factor.factorId }]);

    // The refresh token from before the verification no longer carries the session; the new one does.
    const refreshed = await standIn.client().auth.refreshSession({
      refresh_token: verified.data?.refresh_token ?? '',
    });
    expect(refreshed.error).toBeNull();
    const refreshedClaims = (await standIn.client().auth.getClaims(refreshed.data.session?.access_token)).data
      ?.claims;
    expect(refreshedClaims).toMatchObject({ aal: 'aal2', amr: [{ method: 'totp' }, { method: 'password' }] });
  });

  test('a wrong code, a used, unknown or foreign challenge, and an unknown factor are refused', async () => {
    const { supabase } = await signedUpUser();
    const factor = await enrolled(supabase);
    const challenge = await supabase.auth.mfa.challenge({ factorId: factor.factorId });
    const challengeId = challenge.data?.id ?? '';

    const wrong = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId,
      code: wrongCode(factor.secret),
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });
    // A failed attempt does not use the challenge up.
    const right = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId,
      code: currentCode(factor.secret),
    });
    expect(right.error).toBeNull();
    const reused = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId,
      code: currentCode(factor.secret),
    });
    // GoTrue answers a used challenge as it answers one from another address.
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const unknownChallenge = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId: crypto.randomUUID(),
      code: currentCode(factor.secret),
    });
    expect(unknownChallenge.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });
    const unknownFactor = await supabase.auth.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(unknownFactor.error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });

    const stranger = await signedUpUser();
    const foreign = await stranger.supabase.auth.mfa.challenge({ factorId: factor.factorId });
    expect(foreign.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const notUuid = await callAuth('/factors/not-a-uuid/challenge', {
      method: 'POST',
      token: await accessToken(supabase),
    });
    expect(notUuid).toEqual({
      status: 404,
      body: { code: 'validation_failed', message: 'factor_id must be an UUID' },
    });
  });

  test('a challenge must be verified from the address that asked for it, within 300 seconds', async () => {
    const { supabase } = await signedUpUser();
    const factor = await enrolled(supabase);
    const token = await accessToken(supabase);
    const elsewhere = await callAuth(`/factors/${factor.factorId}/challenge`, {
      method: 'POST',
      token,
      body: {},
      headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
    });
    expect(elsewhere.status).toBe(200);
    const mismatch = await callAuth(`/factors/${factor.factorId}/verify`, {
      method: 'POST',
      token,
      body: { challenge_id: elsewhere.body.id, code: currentCode(factor.secret) },
    });
    expect(mismatch).toEqual({
      status: 422,
      body: { code: 'mfa_ip_address_mismatch', message: 'Challenge and verify IP addresses mismatch.' },
    });
    const stored = await standIn.withDatabase((db) =>
      db.query<{ ip: string }>('select host(ip_address) as ip from auth.mfa_challenges where id = $1', [
        elsewhere.body.id,
      ]),
    );
    expect(stored.rows).toEqual([{ ip: '203.0.113.7' }]);

    const stale = await supabase.auth.mfa.challenge({ factorId: factor.factorId });
    await standIn.withDatabase((db) =>
      db.query(`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`, [
        stale.data?.id,
      ]),
    );
    const expired = await supabase.auth.mfa.verify({
      factorId: factor.factorId,
      challengeId: stale.data?.id ?? '',
      code: currentCode(factor.secret),
    });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    const left = await standIn.withDatabase((db) =>
      db.query('select 1 from auth.mfa_challenges where id = $1', [stale.data?.id]),
    );
    expect(left.rowCount).toBe(0);
  });

  test('verifying ends the other aal1 sessions; a later password sign-in is aal1 with aal2 next', async () => {
    const { email, supabase } = await signedUpUser();
    const otherDevice = await signedIn(email);
    const otherToken = await accessToken(otherDevice);
    const factor = await enrolled(supabase);
    const spare = await enrolled(supabase, 'spare');
    const { error } = await supabase.auth.mfa.challengeAndVerify({
      factorId: factor.factorId,
      code: currentCode(factor.secret),
    });
    expect(error).toBeNull();
    expect((await standIn.client().auth.getUser(otherToken)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect((await supabase.auth.getUser()).error).toBeNull();
    const factors = await standIn.withDatabase((db) =>
      db.query('select id from auth.mfa_factors where id = $1', [spare.factorId]),
    );
    expect(factors.rowCount).toBe(0);

    const later = await signedIn(email);
    const level = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
      currentAuthenticationMethods: [{ method: 'password', timestamp: expect.any(Number) }],
    });
    const changePassword = await later.auth.updateUser({ password: 'a brand new passphrase' });
    expect(changePassword.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    const secondFactor = await later.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    expect(secondFactor.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    });
  });

  test('unenroll: refused from aal1 for a verified factor, allowed from aal2, and the session drops to aal1', async () => {
    const { email, supabase, factor } = await userWithVerifiedFactor();
    const factorId = factor.factorId;
    const aal1 = await signedIn(email);
    const refused = await aal1.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal' });

    const removed = await supabase.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    const user = await callAuth('/user', { method: 'GET', token: await accessToken(supabase) });
    expect(user.status).toBe(200);
    expect(user.body).not.toHaveProperty('factors');
    const refreshToken = (await supabase.auth.getSession()).data.session?.refresh_token ?? '';
    const refreshed = await standIn.client().auth.refreshSession({ refresh_token: refreshToken });
    const claims = (await standIn.client().auth.getClaims(refreshed.data.session?.access_token)).data?.claims;
    expect(claims).toMatchObject({
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
    });
    expect(claims?.amr).toHaveLength(1);
  });

  test('an unverified factor may be unenrolled from aal1; names are unique; unverified factors expire', async () => {
    const { supabase } = await signedUpUser();
    const first = await enrolled(supabase, 'Laptop');
    const duplicate = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    const removed = await supabase.auth.mfa.unenroll({ factorId: first.factorId });
    expect(removed.error).toBeNull();

    const stale = await enrolled(supabase, 'Stale');
    await standIn.withDatabase((db) =>
      db.query(`update auth.mfa_factors set created_at = now() - interval '301 seconds' where id = $1`, [
        stale.factorId,
      ]),
    );
    await enrolled(supabase, 'Fresh');
    const names = (await supabase.auth.mfa.listFactors()).data?.all.map((factor) => factor.friendly_name);
    expect(names).toEqual(['Fresh']);
  });

  test('at most 10 factors; only TOTP can be enrolled', async () => {
    const { supabase } = await signedUpUser();
    for (let index = 1; index <= 10; index += 1) await enrolled(supabase, `Key ${index}`);
    const eleventh = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Key 11' });
    expect(eleventh.error).toMatchObject({ status: 422, code: 'too_many_enrolled_mfa_factors' });
    const phone = await supabase.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
    const unknownType = await callAuth('/factors', {
      method: 'POST',
      token: await accessToken(supabase),
      body: { factor_type: 'sms' },
    });
    expect(unknownType).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'factor_type needs to be totp, phone, or webauthn' },
    });
  });
});
