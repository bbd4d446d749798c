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
import { hostileRequests, hostileString, type HostileRequest } from '../support/hostile-input.ts';
import { OPERATIONS } from '../support/operations.ts';
import { accessTokenClaims, signWithTestKey, withBearer } from '../support/test-users.ts';
import { insertTaskInNewProject } from '../support/task-fixture.ts';
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

/**
 * The Content-Type of an upload is the type Storage serves the file with (issue 23, item 1): whatever a
 * client PUTs to a signed upload URL, a file becomes ready only when Storage keeps it under exactly the
 * declared type; otherwise Storage refuses the upload, or `complete` finds nothing (409) or refuses and
 * removes it (415). Nothing ready is ever kept under another type.
 */
describe('uploads sent with a hostile Content-Type', () => {
  const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
  const ALLOWED = ['image/gif', 'image/png', 'text/plain', 'application/zip'];
  /** Header values fetch can send: no control characters, no leading or trailing blanks (it trims them). */
  const sendable = (value: string) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value);
  const hostileType = fc
    .oneof(
      fc.tuple(fc.constantFrom(...ALLOWED), hostileString).map(([type, tail]) => `${type}${tail}`),
      fc
        .tuple(
          fc.constantFrom(...ALLOWED),
          fc.constantFrom('/,text/html', '/', ',text/html', ';a=b', ', image/svg+xml'),
        )
        .map(([type, tail]) => `${type}${tail}`),
      fc.tuple(hostileString, fc.constantFrom(...ALLOWED)).map(([head, type]) => `${head}${type}`),
      fc.constantFrom('IMAGE/GIF', 'image/GIF', 'image/gif/', 'image/*', '*/*', 'image/gif\u00a0'),
      hostileString,
    )
    .filter(sendable);

  it('makes a file ready only when Storage keeps it under exactly the declared type', async () => {
    const task = await insertTaskInNewProject(api.db, fixture);
    const call = (path: string, init: RequestInit = {}) =>
      callApi(api.app, `/api${path}`, withBearer(fixture.owner.accessToken, init));
    await fc.assert(
      fc.asyncProperty(hostileType, async (type) => {
        const declared = await call(`/v1/tasks/${task.id}/attachments`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ file_name: 'a.gif', content_type: 'image/gif', size_bytes: GIF.length }),
        });
        expect(declared.status, declared.text).toBe(201);
        const { attachment, upload } = declared.body as {
          attachment: { id: string };
          upload: { url: string };
        };
        const put = await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': type }, body: GIF });
        if (put.ok) expect(ALLOWED, `Storage took ${JSON.stringify(type)}`).toContain(type);
        const completed = await call(`/v1/attachments/${attachment.id}/complete`, { method: 'POST' });
        const expected = !put.ok ? 409 : type === 'image/gif' ? 200 : 415;
        expect(completed.status, `${JSON.stringify(type)}: ${completed.text}`).toBe(expected);
        // What is not ready goes, so the next run has room (and the person's pending uploads stay few).
        if (completed.status !== 200) await call(`/v1/attachments/${attachment.id}`, { method: 'DELETE' });
        const [stored] = await api.db.asService((sql) =>
          sql.query<{ mimetype: string | null }>(
            `select o.metadata ->> 'mimetype' as mimetype from public.attachments a
             join storage.objects o on o.bucket_id = 'attachments' and o.name = a.object_path
             where a.id = $1 and a.status = 'ready'`,
            [attachment.id],
          ),
        );
        if (stored) expect(stored.mimetype).toBe('image/gif');
      }),
      { numRuns: RUNS_PER_OPERATION, includeErrorInReport: true },
    );
  });
});
