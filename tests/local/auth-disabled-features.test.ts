import { describe, expect, test } from 'vitest';
import { uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'disabled features password';

describe('the stand-in Auth service: switched-off features answer with GoTrue codes', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const newEmail = uniqueEmails('disabled');

  async function signedUp() {
    const supabase = standIn.client();
    const { data, error } = await supabase.auth.signUp({ email: newEmail(), password: PASSWORD });
    expect(error).toBeNull();
    if (!data.session) throw new Error('signUp returned no session');
    return { supabase, session: data.session };
  }

  test('anonymous sign-in is 422 anonymous_provider_disabled', async () => {
    const { data, error } = await standIn.client().auth.signInAnonymously();
    expect(data).toEqual({ user: null, session: null });
    expect(error).toMatchObject({
      name: 'AuthApiError',
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    });
  });

  test('SSO is 404 saml_provider_disabled', async () => {
    const { data, error } = await standIn.client().auth.signInWithSSO({ domain: 'example.com' });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      name: 'AuthApiError',
      status: 404,
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    });
  });

  test('a web3 sign-in is 422 web3_provider_disabled', async () => {
    const { data, error } = await standIn.client().auth.signInWithWeb3({
      chain: 'ethereum',
      message: 'example.com wants you to sign in with your Ethereum account',
      signature: '0x00',
    });
    expect(data).toEqual({ user: null, session: null });
    expect(error).toMatchObject({
      name: 'AuthApiError',
      status: 422,
      code: 'web3_provider_disabled',
      message: 'Web3 provider is disabled',
    });
  });

  test('an ID token of a provider that is not enabled is 400 provider_disabled', async () => {
    const { data, error } = await standIn
      .client()
      .auth.signInWithIdToken({ provider: 'google', token: 'header.payload.signature' });
    expect(data).toEqual({ user: null, session: null });
    expect(error).toMatchObject({
      name: 'AuthApiError',
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
  });

  test('manual linking and unlinking are 404 manual_linking_disabled, after the bearer is checked', async () => {
    const { supabase, session } = await signedUp();
    const linked = await supabase.auth.linkIdentity({ provider: 'github' });
    expect(linked.data).toEqual({ provider: 'github', url: null, flowId: null });
    expect(linked.error).toMatchObject({
      name: 'AuthApiError',
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    });
    const identity = session.user.identities?.[0];
    if (!identity) throw new Error('the new user has no identity');
    expect((await supabase.auth.unlinkIdentity(identity)).error).toMatchObject({
      status: 404,
      code: 'manual_linking_disabled',
    });

    const anonymous = await standIn.callAuth('/user/identities/authorize?provider=github', {
      token: standIn.keys.anonKey,
    });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ code: 'bad_jwt' });
  });

  test('a JWT in apikey without Authorization is not a bearer: 401 no_authorization', async () => {
    const { session } = await signedUp();
    for (const key of [standIn.keys.anonKey, session.access_token]) {
      const response = await standIn.callAuth('/user', { key });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        code: 'no_authorization',
        message: 'This endpoint requires a valid Bearer token',
      });
    }
    const withBearer = await standIn.callAuth('/user', { token: session.access_token });
    expect(withBearer.status).toBe(200);
  });
});
