/**
 * Banned and deleted accounts lose access at once, whichever credential they hold: a ban leaves the
 * sessions in place and a soft delete is only a column, so both credential checks must read the user.
 * Users are banned and deleted by writing auth.users, as GoTrue's admin API does.
 */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { meCalls } from '../support/me-calls.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();
const ME = '/api/v1/me';
const REFUSED_CREDENTIALS = 'Bearer error="invalid_token"';

const getMe = (bearer: string) => callApi(api.app, ME, withBearer(bearer));

interface Credentials {
  user: TestUser;
  accessToken: string;
  apiToken: string;
}

/** A user with a working access token and API token, each used once (so the access token is cached). */
async function userWithBothCredentials(): Promise<Credentials> {
  const user = await createTestUser(api.db);
  const created = await meCalls(api.app).createToken(user.accessToken, { name: 'CI', scope: 'write' });
  expect(created.status).toBe(201);
  const apiToken = created.body.token;
  expect((await getMe(user.accessToken)).status).toBe(200);
  expect((await getMe(apiToken)).status).toBe(200);
  return { user, accessToken: user.accessToken, apiToken };
}

const writeUser = (statement: string, userId: string) =>
  asService(api.db, (sql) => sql.query(statement, [userId]));

/** What GoTrue's admin API writes for each action (see local/auth/admin-users*.ts). */
const ACTIONS = {
  ban: (userId: string) =>
    writeUser(`update auth.users set banned_until = now() + interval '24 hours' where id = $1`, userId),
  // Only the column: the API must not count on the Auth server also ending the sessions.
  'soft delete': (userId: string) =>
    writeUser('update auth.users set deleted_at = now() where id = $1', userId),
  'hard delete': (userId: string) => writeUser('delete from auth.users where id = $1', userId),
} as const;

function expectUnauthenticated(response: ApiResponse): void {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('www-authenticate')).toBe(REFUSED_CREDENTIALS);
  expect(problemOf(response).code).toBe('unauthenticated');
}

describe.each(Object.entries(ACTIONS))('after a %s', (_action, act) => {
  it('the access token is 401 on the very next request', async () => {
    const { user, accessToken } = await userWithBothCredentials();
    await act(user.id);
    expectUnauthenticated(await getMe(accessToken));
  });

  it('the API token is 401 on the very next request', async () => {
    const { user, apiToken } = await userWithBothCredentials();
    await act(user.id);
    expectUnauthenticated(await getMe(apiToken));
  });
});

describe('the refusals say why', () => {
  it('names a ban and a deletion for an access token', async () => {
    const banned = await userWithBothCredentials();
    await ACTIONS.ban(banned.user.id);
    expect(problemOf(await getMe(banned.accessToken)).detail).toBe('The account is banned.');

    const deleted = await userWithBothCredentials();
    await ACTIONS['soft delete'](deleted.user.id);
    expect(problemOf(await getMe(deleted.accessToken)).detail).toBe('The account has been deleted.');
  });

  it("does not record a soft-deleted user's API token as used", async () => {
    const { user, apiToken } = await userWithBothCredentials();
    await asService(api.db, (sql) =>
      sql.query('update public.api_tokens set last_used_at = null where user_id = $1', [user.id]),
    );
    await ACTIONS['soft delete'](user.id);
    expectUnauthenticated(await getMe(apiToken));
    const [row] = await asService(api.db, (sql) =>
      sql.query<{ last_used_at: Date | null }>(
        'select last_used_at from public.api_tokens where user_id = $1',
        [user.id],
      ),
    );
    expect(row?.last_used_at).toBeNull();
  });
});

describe('a ban that has ended', () => {
  it('lets both credentials work again', async () => {
    const { user, accessToken, apiToken } = await userWithBothCredentials();
    await ACTIONS.ban(user.id);
    expectUnauthenticated(await getMe(accessToken));
    expectUnauthenticated(await getMe(apiToken));
    await writeUser(
      `update auth.users set banned_until = now() - interval '1 second' where id = $1`,
      user.id,
    );
    expect((await getMe(accessToken)).status).toBe(200);
    expect((await getMe(apiToken)).status).toBe(200);
  });
});
