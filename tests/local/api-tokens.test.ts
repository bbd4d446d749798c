import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';
import { standInApiKeys, supabaseClient, UNLIMITED_AUTH_RATES } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const SECRET = /^tl_pat_[0-9A-Za-z]{43}$/;

interface CreatedToken {
  id: string;
  token: string;
  scope: string;
}

describe('personal API tokens through the stand-in gateway', () => {
  let standIn: StandInProcess;
  let accessToken: string;
  let userId: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    standIn = await startStandIn({ env: UNLIMITED_AUTH_RATES });
    const supabase = supabaseClient(standIn.apiUrl, (await standInApiKeys(standIn)).anonKey);
    const { data, error } = await supabase.auth.signUp({
      email: `api-tokens.${Date.now()}@example.com`,
      password: PASSWORD,
      options: { data: { display_name: 'Token Owner' } },
    });
    expect(error).toBeNull();
    if (!data.session || !data.user) throw new Error('signUp returned no session');
    accessToken = data.session.access_token;
    userId = data.user.id;
  });

  afterAll(async () => {
    await standIn.dispose();
  });

  const api = (path: string) => `${standIn.apiUrl}/functions/v1/api/v1${path}`;
  const bearer = (token: string, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: { ...init.headers, Authorization: `Bearer ${token}` },
  });

  async function createToken(scope: 'read' | 'write'): Promise<{ response: Response; token: CreatedToken }> {
    const response = await fetch(
      api('/me/tokens'),
      bearer(accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `E2E ${scope}`, scope, expires_in_days: 7 }),
      }),
    );
    expect(response.status).toBe(201);
    const token = (await response.json()) as CreatedToken;
    secrets.push(token.token);
    return { response, token };
  }

  test('a token made with the session acts as its user on GET /v1/me', async () => {
    const { response, token } = await createToken('write');
    expect(token.token).toMatch(SECRET);

    const location = new URL(response.headers.get('location') ?? '', response.url);
    expect(location.href).toBe(api(`/me/tokens/${token.id}`));
    const listed = await fetch(location, bearer(accessToken));
    expect(listed.status).toBe(200);
    expect(await listed.json()).not.toHaveProperty('token');

    const me = await fetch(api('/me'), bearer(token.token));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      id: userId,
      display_name: 'Token Owner',
      credential: { type: 'api_token', api_token_id: token.id, scope: 'write' },
    });
  });

  test('a read token may read but not write, and no token may manage tokens', async () => {
    const { token } = await createToken('read');
    expect((await fetch(api('/me'), bearer(token.token))).status).toBe(200);

    const patch = await fetch(
      api('/me'),
      bearer(token.token, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ display_name: 'Renamed' }),
      }),
    );
    expect(patch.status).toBe(403);
    expect(await patch.json()).toMatchObject({ code: 'insufficient_scope' });

    const list = await fetch(api('/me/tokens'), bearer(token.token));
    expect(list.status).toBe(403);
    expect(await list.json()).toMatchObject({ code: 'forbidden' });
  });

  test('a revoked token is refused at once', async () => {
    const { token } = await createToken('write');
    const revoke = await fetch(api(`/me/tokens/${token.id}`), bearer(accessToken, { method: 'DELETE' }));
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toMatchObject({ id: token.id, status: 'revoked' });

    const me = await fetch(api('/me'), bearer(token.token));
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await me.json()).toMatchObject({
      code: 'unauthenticated',
      detail: 'The API token has been revoked. Create a new one.',
    });
  });

  test("no token's secret reaches the stand-in's or the function's output", () => {
    const output = standIn.output();
    expect(output).toMatch(/\/v1\/me\/tokens/);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(output).not.toContain(secret.slice('tl_pat_'.length));
  });
});
