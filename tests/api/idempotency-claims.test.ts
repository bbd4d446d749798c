/**
 * An Idempotency-Key's claim, sent with the credential's check (docs/decisions/0016), with the real
 * credentials (access tokens and API tokens): a request refused before it runs leaves the key free, a
 * claim held by a running request answers 409, and one whose request died is taken over once stale.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_CLAIM_STALE_SECONDS } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import { jsonRequest } from '../support/resource-calls.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';
import { createApiTokenFor } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();

let ada: TestUser;
const bearers: Record<string, string> = {};
beforeAll(async () => {
  ada = await createTestUser(api.db);
  bearers['an access token'] = ada.accessToken;
  bearers['an API token'] = await createApiTokenFor(api.app, ada, 'write');
});

const newWorkspace = () => ({ name: 'Claimed', slug: `claimed-${randomUUID().slice(0, 8)}` });

function createWorkspace(bearer: string, key: string, body: unknown = newWorkspace()): Promise<ApiResponse> {
  return callApi(
    api.app,
    '/api/v1/workspaces',
    withBearer(bearer, jsonRequest('POST', body, { 'Idempotency-Key': key })),
  );
}

async function claimsOf(key: string): Promise<number> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ count: number }>(
      'select count(*)::integer as count from private.idempotency_claims where key = $1',
      [key],
    ),
  );
  return row?.count ?? 0;
}

/** A claim of `key` for ada's sessions, made `secondsAgo`, as a request that is running (or died) leaves it. */
async function claimedAgo(key: string, secondsAgo: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into private.idempotency_claims (principal, key, claimed_at)
       values ($1, $2, now() - make_interval(secs => $3))`,
      [`user:${ada.id}`, key, secondsAgo],
    ),
  );
}

describe.each(['an access token', 'an API token'])('a key claimed with %s', (credential) => {
  const bearer = () => bearers[credential] ?? '';

  it('is free again when the request is refused before it runs', async () => {
    const key = randomUUID();
    const refused = await callApi(
      api.app,
      '/api/v1/workspaces',
      withBearer(bearer(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: '{"name": ',
      }),
    );
    expect(refused.status).toBe(400);
    expect(await claimsOf(key)).toBe(0);
    expect((await createWorkspace(bearer(), key)).status).toBe(201);
  });

  it('is free again when the answer is not a success', async () => {
    const key = randomUUID();
    expect((await createWorkspace(bearer(), key, { name: '' })).status).toBe(422);
    expect(await claimsOf(key)).toBe(0);
    expect((await createWorkspace(bearer(), key)).status).toBe(201);
  });
});

describe('a claim', () => {
  it('held by a request still running answers 409 idempotency_key_in_use', async () => {
    const key = randomUUID();
    await claimedAgo(key, 0);
    const response = await createWorkspace(ada.accessToken, key);
    expect(response.status).toBe(409);
    expect(problemOf(response).code).toBe('idempotency_key_in_use');
  });

  it('whose request died is taken over once stale, and the request runs', async () => {
    const key = randomUUID();
    await claimedAgo(key, IDEMPOTENCY_CLAIM_STALE_SECONDS + 1);
    const response = await createWorkspace(ada.accessToken, key);
    expect(response.status).toBe(201);
    const replay = await createWorkspace(ada.accessToken, key, {});
    expect(replay.status).toBe(422);
    expect(problemOf(replay).code).toBe('idempotency_key_reused');
  });
});
