/**
 * Hostile input against every operation of openapi.yaml (tests/support/operations.ts), sent by the
 * workspace's owner, the most powerful caller: a broken path parameter, query string, If-Match or
 * If-None-Match header, or body (tests/support/hostile-input.ts). Every answer must be the 4xx problem
 * the broken part calls for, as openapi.yaml documents it (callApi checks), never a 5xx, and the
 * database must be left as it was. Sent with a credential that no longer stands (a signed-out session, a
 * banned or soft-deleted admin's), the same requests are all `401` and log no unexpected error, even a
 * read whose work runs beside its credential's check (decision 0030) under RLS that hides everything
 * from such a credential (0032).
 * fast-check prints the seed and the shrunk request of a failure; rerun it with `seed` and `path` in
 * the options of fc.assert.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import { callApi, problemOf } from '../support/api-request.ts';
import { attachmentCalls } from '../support/attachment-calls.ts';
import { digestPublicTables } from '../support/database-digest.ts';
import { hostileRequests, hostileString, type HostileRequest } from '../support/hostile-input.ts';
import { OPERATIONS } from '../support/operations.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import {
  accessTokenClaims,
  createTestUser,
  signWithTestKey,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';
import { insertTaskInNewProject } from '../support/task-fixture.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const RUNS_PER_OPERATION = 25;
const RUNS_PER_OPERATION_WITH_AN_ENDED_CREDENTIAL = 10;

// Every run is a request by the same owner; rate limits are not the subject here.
const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY, withStorage: true });

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceWithRoles(api.db);
});

function send(request: HostileRequest, bearer = fixture.owner.accessToken) {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.body !== undefined) init.body = request.body;
  return callApi(api.app, request.path, withBearer(bearer, init));
}

// The scheduler's calls check the secret key before reading any input: every person is 401 there.
describe.each(OPERATIONS.filter((operation) => operation.access.kind !== 'service'))(
  '$operationId ($method $path)',
  (operation) => {
    it('answers hostile input with the 4xx problem it calls for, and changes nothing', async () => {
      const ownerBearer = await signWithTestKey(accessTokenClaims(fixture.owner, 'aal2'));
      const call = await operation.prepare({ app: api.app, db: api.db, fixture, ownerBearer });
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
  },
);

/** How a session stops standing, in SQL on its user's id, as Auth leaves it. */
const ENDINGS = {
  'signed out': 'delete from auth.sessions where user_id = $1',
  banned: `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
  'soft-deleted': 'update auth.users set deleted_at = now() where id = $1',
} as const;

/** An admin of the workspace whose session then ended by `ending`. */
async function endedAdmin(
  db: Database,
  workspace: WorkspaceFixture,
  ending: keyof typeof ENDINGS,
): Promise<TestUser> {
  const admin = await createTestUser(db);
  await asService(db, async (sql) => {
    await sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'admin')`, [
      workspace.id,
      admin.id,
    ]);
    await sql.query(ENDINGS[ending], [admin.id]);
  });
  return admin;
}

interface EndedCast {
  /** A workspace of its own: some calls can be prepared only once in a workspace (an invitation). */
  workspace: WorkspaceFixture;
  /** One admin of it per ending; each request signs a token of its own anyway. */
  admins: TestUser[];
}

let endedCastMade: Promise<EndedCast> | undefined;
function endedCast(): Promise<EndedCast> {
  endedCastMade ??= (async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const endings = Object.keys(ENDINGS) as (keyof typeof ENDINGS)[];
    const admins = await Promise.all(endings.map((ending) => endedAdmin(api.db, workspace, ending)));
    return { workspace, admins };
  })();
  return endedCastMade;
}

describe.each(
  OPERATIONS.filter((operation) => operation.access.kind !== 'public' && operation.access.kind !== 'service'),
)('$operationId ($method $path) with a credential that no longer stands', (operation) => {
  it('answers every hostile request 401, logs no unexpected error, and changes nothing', async () => {
    const { workspace, admins } = await endedCast();
    const ownerBearer = await signWithTestKey(accessTokenClaims(workspace.owner, 'aal2'));
    const call = await operation.prepare({ app: api.app, db: api.db, fixture: workspace, ownerBearer });
    const before = await digestPublicTables(api.db);

    await fc.assert(
      fc.asyncProperty(
        hostileRequests(operation, call),
        fc.constantFrom(...admins),
        async (request, admin) => {
          // A token never seen before, so that a read goes beside its check, not behind it (0030).
          const bearer = await signWithTestKey({ ...accessTokenClaims(admin), jti: randomUUID() });
          const response = await send(request, bearer);
          expect(response.status, response.text.slice(0, 500)).toBe(401);
          expect(problemOf(response).code).toBe('unauthenticated');
          const requestId = response.headers.get('x-request-id') ?? '';
          const errors = api.logs.forRequest(requestId).filter((entry) => entry.level === 'error');
          expect(errors).toEqual([]);
        },
      ),
      { numRuns: RUNS_PER_OPERATION_WITH_AN_ENDED_CREDENTIAL, includeErrorInReport: true },
    );

    expect(await digestPublicTables(api.db)).toEqual(before);
  });
});

/**
 * The Content-Type of an upload is the type Storage serves the file with (the second security review, item
 * 1): whatever a client PUTs to a signed upload URL, a file becomes ready only when Storage keeps it under
 * exactly the declared type; otherwise Storage refuses the upload, or `complete` finds nothing (409) or
 * refuses and removes it (415). Nothing ready is ever kept under another type.
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
    const token = fixture.owner.accessToken;
    const attachments = attachmentCalls(api.app);
    await fc.assert(
      fc.asyncProperty(hostileType, async (type) => {
        const declared = await attachments.declare(token, task.id, {
          file_name: 'a.gif',
          content_type: 'image/gif',
          size_bytes: GIF.length,
        });
        expect(declared.status, declared.text).toBe(201);
        const { attachment, upload } = declared.body;
        const put = await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': type }, body: GIF });
        if (put.ok) expect(ALLOWED, `Storage took ${JSON.stringify(type)}`).toContain(type);
        const completed = await attachments.complete(token, attachment.id);
        const expected = !put.ok ? 409 : type === 'image/gif' ? 200 : 415;
        expect(completed.status, `${JSON.stringify(type)}: ${completed.text}`).toBe(expected);
        // What is not ready goes, so the next run has room (and the person's pending uploads stay few).
        if (completed.status !== 200) await attachments.remove(token, attachment.id);
        const [stored] = await asService(api.db, (sql) =>
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
