/**
 * Hostile input against every operation of openapi.yaml (tests/support/operations.ts), sent by the
 * workspace's owner, the most powerful caller: a broken path parameter, query string, If-Match or
 * If-None-Match header, or body (tests/support/hostile-input.ts). Every answer must be the 4xx problem
 * the broken part calls for, as openapi.yaml documents it (callApi checks), never a 5xx, and the
 * database must be left as it was.
 * fast-check prints the seed and the shrunk request of a failure; rerun it with `seed` and `path` in
 * the options of fc.assert.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import { callApi, problemOf } from '../support/api-request.ts';
import { digestPublicTables } from '../support/database-digest.ts';
import { hostileRequests, type HostileRequest } from '../support/hostile-input.ts';
import { OPERATIONS } from '../support/operations.ts';
import { accessTokenClaims, signWithTestKey, withBearer } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const RUNS_PER_OPERATION = 25;

// Every run is a request by the same owner; rate limits are not the subject here.
const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY, withStorage: true });

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceWithRoles(api.db);
});

function send(request: HostileRequest) {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.body !== undefined) init.body = request.body;
  return callApi(api.app, request.path, withBearer(fixture.owner.accessToken, init));
}

describe.each(OPERATIONS)('$operationId ($method $path)', (operation) => {
  it('answers hostile input with the 4xx problem it calls for, and changes nothing', async () => {
    const ownerBearer = await signWithTestKey(accessTokenClaims(fixture.owner, 'aal2'));
    const call = await operation.prepare({ app: api.app, fixture, ownerBearer });
    const before = await digestPublicTables(api.db);

    await fc.assert(
      fc.asyncProperty(hostileRequests(operation, call), async (request) => {
        const response = await send(request);
        expect(request.expected, `answered ${response.status}: ${response.text.slice(0, 500)}`).toContain(
          response.status,
        );
        expect(problemOf(response).status).toBe(response.status);
      }),
      { numRuns: RUNS_PER_OPERATION, includeErrorInReport: true },
    );

    expect(await digestPublicTables(api.db)).toEqual(before);
  });
});
