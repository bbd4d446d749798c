/**
 * docs/product.md#roles as answers: every operation of openapi.yaml (tests/support/operations.ts) × every
 * kind of caller — no credentials, each workspace role, an outsider, the owner's `read` and `write` API
 * tokens, credentials that no longer stand (a ban, a soft deletion, a sign-out, a revoked token) — and, for
 * workspace operations, the `require_mfa` rule and a resource named under another workspace. Allowed callers
 * get the operation's success status; refused ones the exact problem code. Refusals and reads leave the
 * database as it was; allowed writes change it; no answer logs an unexpected error.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import { digestPublicTables } from '../support/database-digest.ts';
import { openApi } from '../support/openapi.ts';
import {
  addressOf,
  OPERATIONS,
  requestInitOf,
  SAFE_METHODS,
  type Operation,
  type PreparedCall,
} from '../support/operations.ts';
import { accessTokenClaims, createTestUser, signWithTestKey, withBearer } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  WORKSPACE_ROLES,
  type WorkspaceFixture,
  type WorkspaceRole,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

// The matrix sends a few hundred requests a minute as a handful of people; rate limits are not its subject.
const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY, withStorage: true });

type Person = WorkspaceRole | 'outsider';

type Caller =
  | { kind: 'anonymous' }
  /** A session of one of the fixture's people, at aal1 (a password) or aal2 (and a second factor). */
  | { kind: 'session'; person: Person; aal: 'aal1' | 'aal2' }
  /** An API token of the fixture's owner. */
  | { kind: 'api_token'; scope: 'read' | 'write' }
  /**
   * An admin of the workspace whose credential stopped standing after it was made: the admin was banned
   * or soft-deleted, the session signed out, or the write token revoked.
   */
  | { kind: 'barred'; standing: Standing; credential: 'session' | 'api_token' };

type Standing = 'banned' | 'soft-deleted' | 'signed out' | 'revoked';

interface Outcome {
  status: number;
  /** The problem's code; none for a success. */
  code?: string;
}

interface MatrixCase {
  name: string;
  caller: Caller;
  requireMfa: boolean;
  /** The call names its resource under another workspace the caller belongs to, instead of its own. */
  elsewhere?: boolean;
  expected: Outcome;
}

const sessionOf = (person: Person, aal: 'aal1' | 'aal2' = 'aal1'): Caller => ({
  kind: 'session',
  person,
  aal,
});

const PLAIN_CALLERS: readonly [string, Caller][] = [
  ['no credentials', { kind: 'anonymous' }],
  ...WORKSPACE_ROLES.map((role): [string, Caller] => [role, sessionOf(role)]),
  ['an outsider', sessionOf('outsider')],
  ["the owner's read token", { kind: 'api_token', scope: 'read' }],
  ["the owner's write token", { kind: 'api_token', scope: 'write' }],
  ["a banned admin's session", { kind: 'barred', standing: 'banned', credential: 'session' }],
  [
    "a soft-deleted admin's write token",
    { kind: 'barred', standing: 'soft-deleted', credential: 'api_token' },
  ],
  ["a signed-out admin's session", { kind: 'barred', standing: 'signed out', credential: 'session' }],
  ["an admin's revoked write token", { kind: 'barred', standing: 'revoked', credential: 'api_token' }],
];

/** In a workspace that requires MFA, the callers that would otherwise get in. */
const MFA_CALLERS: Partial<Record<Operation['access']['kind'], readonly [string, Caller][]>> = {
  workspace: [
    ['the owner at aal1', sessionOf('owner')],
    ['the owner at aal2', sessionOf('owner', 'aal2')],
    // The owner has no verified factor, so their tokens count as aal1.
    ["the owner's write token", { kind: 'api_token', scope: 'write' }],
  ],
  invitee: [
    ['the invitee at aal1', sessionOf('outsider')],
    ['the invitee at aal2', sessionOf('outsider', 'aal2')],
  ],
};

const isSafe = (operation: Operation) => SAFE_METHODS.includes(operation.method);

/** What docs/product.md#roles says `caller` gets from `operation` in a workspace without the MFA rule. */
function expectedOutcome(operation: Operation, caller: Caller): Outcome {
  const success: Outcome = { status: operation.success };
  const { access } = operation;
  if (access.kind === 'service') return { status: 401, code: 'unauthenticated' };
  // A public route reads no credentials: whatever is sent, the answer is everyone's.
  if (access.kind === 'public') return success;
  if (caller.kind === 'anonymous' && access.kind === 'optional_credentials') return success;
  if (caller.kind === 'anonymous' || caller.kind === 'barred')
    return { status: 401, code: 'unauthenticated' };
  if (caller.kind === 'api_token') {
    if (access.kind === 'session_only') return { status: 403, code: 'forbidden' };
    if (caller.scope === 'read' && !isSafe(operation)) return { status: 403, code: 'insufficient_scope' };
    return expectedOutcome(operation, sessionOf('owner'));
  }
  const { person } = caller;
  switch (access.kind) {
    case 'optional_credentials':
      return success;
    case 'signed_in':
      return access.ownResource && person !== 'owner' ? { status: 404, code: 'not_found' } : success;
    case 'session_only':
      return access.ownResource && person !== 'owner' ? { status: 404, code: 'not_found' } : success;
    case 'workspace':
      if (person === 'outsider') return { status: 404, code: 'not_found' };
      return access.roles.includes(person) || access.self === person
        ? success
        : { status: 403, code: 'forbidden' };
    case 'invitee':
      return person === 'outsider' ? success : { status: 403, code: 'forbidden' };
  }
}

/** On a `require_mfa` workspace: aal1 callers that would get in are stopped at the door. */
function expectedWithMfa(operation: Operation, caller: Caller): Outcome {
  const outcome = expectedOutcome(operation, caller);
  const atAal2 = caller.kind === 'session' && caller.aal === 'aal2';
  const stoppedEarlier = ['unauthenticated', 'insufficient_scope', 'not_found'];
  if (atAal2 || stoppedEarlier.includes(outcome.code ?? '')) return outcome;
  return { status: 403, code: 'mfa_required' };
}

function casesOf(operation: Operation): MatrixCase[] {
  const plain = PLAIN_CALLERS.map(([name, caller]) => ({
    name,
    caller,
    requireMfa: false,
    expected: expectedOutcome(operation, caller),
  }));
  const mfa = (MFA_CALLERS[operation.access.kind] ?? []).map(([name, caller]) => ({
    name: `${name}, in a workspace that requires MFA`,
    caller,
    requireMfa: true,
    expected: expectedWithMfa(operation, caller),
  }));
  return [...plain, ...mfa, ...elsewhereCases(operation)];
}

/**
 * A workspace's resource asked for through another workspace of the same owner is `404`, never a leak.
 * Flat addresses (`/v1/tasks/{id}`) name no workspace: the outsider's case covers them.
 */
function elsewhereCases(operation: Operation): MatrixCase[] {
  const namesAResource = /\{(?!slug\})\w+\}/.test(operation.path);
  const namesAWorkspace = operation.path.includes('{slug}');
  if (operation.access.kind !== 'workspace' || !namesAResource || !namesAWorkspace) return [];
  return [
    {
      name: 'the owner, through another workspace of theirs',
      caller: sessionOf('owner'),
      requireMfa: false,
      elsewhere: true,
      expected: { status: 404, code: 'not_found' },
    },
  ];
}

const describeOutcome = ({ status, code }: Outcome) => (code ? `${status} ${code}` : `${status}`);

/** Fixtures the safe operations share, since they change nothing; a write gets a fixture of its own. */
const sharedFixtures = new Map<boolean, WorkspaceFixture>();
/** The owner's API tokens per fixture and scope, made when a case first needs one. */
const apiTokens = new Map<string, string>();

beforeAll(async () => {
  const [plain, mfa] = await Promise.all([
    createWorkspaceWithRoles(api.db),
    createWorkspaceWithRoles(api.db, { requireMfa: true }),
  ]);
  sharedFixtures.set(false, plain);
  sharedFixtures.set(true, mfa);
});

async function fixtureFor(
  operation: Operation,
  requireMfa: boolean,
  caller: Caller,
): Promise<WorkspaceFixture> {
  const shared = sharedFixtures.get(requireMfa);
  // A barred caller joins the workspace, and the shared owner's token count has no room for its cases.
  if (isSafe(operation) && shared && caller.kind !== 'barred') return shared;
  return createWorkspaceWithRoles(api.db, { requireMfa });
}

async function apiTokenOf(fixture: WorkspaceFixture, scope: 'read' | 'write'): Promise<string> {
  const key = `${fixture.id} ${scope}`;
  const known = apiTokens.get(key);
  if (known) return known;
  const token = await createApiTokenFor(api.app, fixture.owner, scope);
  apiTokens.set(key, token);
  return token;
}

async function bearerOf(caller: Caller, fixture: WorkspaceFixture): Promise<string | undefined> {
  switch (caller.kind) {
    case 'anonymous':
      return undefined;
    case 'api_token':
      return apiTokenOf(fixture, caller.scope);
    case 'session': {
      const person = fixture[caller.person];
      return caller.aal === 'aal1' ? person.accessToken : signWithTestKey(accessTokenClaims(person, 'aal2'));
    }
    case 'barred':
      return barredAdminBearer(fixture, caller);
  }
}

/** How each standing is lost, in SQL on the admin's id, as Auth and the API would leave it. */
const LOSING: Record<Standing, string> = {
  banned: `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
  'soft-deleted': 'update auth.users set deleted_at = now() where id = $1',
  'signed out': 'delete from auth.sessions where user_id = $1',
  revoked: 'update public.api_tokens set revoked_at = now() where user_id = $1',
};

/**
 * A new admin of the fixture's workspace, with a credential, which then stops standing. Each case has a
 * new credential, so that its read is sent with the credential's check rather than after it (0030).
 */
async function barredAdminBearer(
  fixture: WorkspaceFixture,
  { standing, credential }: Extract<Caller, { kind: 'barred' }>,
): Promise<string> {
  const admin = await createTestUser(api.db);
  await asService(api.db, (sql) =>
    sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'admin')`, [
      fixture.id,
      admin.id,
    ]),
  );
  const bearer =
    credential === 'session' ? admin.accessToken : await createApiTokenFor(api.app, admin, 'write');
  await asService(api.db, (sql) => sql.query(LOSING[standing], [admin.id]));
  return bearer;
}

/** What the app logged as a bug (`unexpected error`) while answering `response`. */
const unexpectedErrorsOf = (response: ApiResponse) =>
  api.logs.forRequest(response.headers.get('x-request-id') ?? '').filter((entry) => entry.level === 'error');

/** Each fixture's other workspace: one per owner, who may create only 10. */
const otherWorkspaces = new Map<string, Promise<string>>();

/** A workspace of the fixture's owner, with nobody else in it, made once; its slug. */
function anotherWorkspaceOf(fixture: WorkspaceFixture): Promise<string> {
  const known = otherWorkspaces.get(fixture.id);
  if (known) return known;
  const made = createAnotherWorkspace(fixture);
  otherWorkspaces.set(fixture.id, made);
  return made;
}

async function createAnotherWorkspace(fixture: WorkspaceFixture): Promise<string> {
  const slug = `elsewhere-${randomUUID().slice(0, 8)}`;
  const response = await callApi(
    api.app,
    '/api/v1/workspaces',
    withBearer(fixture.owner.accessToken, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Elsewhere', slug }),
    }),
  );
  expect(response.status, response.text).toBe(201);
  return slug;
}

function send(app: Hono<AppEnv>, operation: Operation, call: PreparedCall, bearer: string | undefined) {
  const init = requestInitOf(operation.method, call);
  const path = addressOf(operation.path, call.params);
  return callApi(app, path, bearer === undefined ? init : withBearer(bearer, init));
}

describe('the operation table', () => {
  const specOperations = Object.entries(openApi.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => typeof operation === 'object' && 'operationId' in operation)
      .map(([method, operation]) => ({ operationId: operation.operationId, method, path })),
  );

  it('lists every operation of openapi.yaml, and no other', () => {
    const inSpec = specOperations.map(({ operationId }) => operationId).sort();
    const inTable = OPERATIONS.map(({ operationId }) => operationId).sort();
    expect(inTable).toEqual(inSpec);
  });

  it('gives each operation the method and path the spec gives it', () => {
    const inTable = OPERATIONS.map(({ operationId, method, path }) => ({ operationId, method, path }));
    expect(inTable).toEqual(expect.arrayContaining(specOperations));
  });
});

describe.each(OPERATIONS)('$operationId ($method $path)', (operation) => {
  it.each(
    casesOf(operation).map((matrixCase) => ({ ...matrixCase, answer: describeOutcome(matrixCase.expected) })),
  )('$name → $answer', async ({ caller, requireMfa, elsewhere, expected }) => {
    const fixture = await fixtureFor(operation, requireMfa, caller);
    const ownerBearer = await signWithTestKey(accessTokenClaims(fixture.owner, 'aal2'));
    const prepared = await operation.prepare({ app: api.app, db: api.db, fixture, ownerBearer });
    const call = elsewhere
      ? { ...prepared, params: { ...prepared.params, slug: await anotherWorkspaceOf(fixture) } }
      : prepared;
    const bearer = await bearerOf(caller, fixture);
    const before = await digestPublicTables(api.db);

    const response = await send(api.app, operation, call, bearer);

    expect(response.status, response.text).toBe(expected.status);
    if (expected.code) expect(problemOf(response).code).toBe(expected.code);
    expect(unexpectedErrorsOf(response)).toEqual([]);
    const after = await digestPublicTables(api.db);
    // A refusal or a read leaves everything as it was; a write that succeeds changes something.
    if (expected.code || isSafe(operation)) expect(after, 'the database changed').toEqual(before);
    else expect(after, 'the database did not change').not.toEqual(before);
  });
});

describe.each(OPERATIONS.filter((operation) => operation.refusals))(
  '$operationId ($method $path), refused by the state of things',
  (operation) => {
    it.each(operation.refusals ?? [])('$name → $expected.status $expected.code', async (refusal) => {
      // A fixture of its own: arranging changes it.
      const fixture = await createWorkspaceWithRoles(api.db);
      const ownerBearer = await signWithTestKey(accessTokenClaims(fixture.owner, 'aal2'));
      const context = { app: api.app, db: api.db, fixture, ownerBearer };
      const call = await refusal.arrange(context, await operation.prepare(context), api.db);
      const bearer = refusal.as === 'outsider' ? fixture.outsider.accessToken : ownerBearer;
      const before = await digestPublicTables(api.db);

      const response = await send(api.app, operation, call, bearer);

      expect(response.status, response.text).toBe(refusal.expected.status);
      expect(problemOf(response).code).toBe(refusal.expected.code);
      expect(await digestPublicTables(api.db), 'the database changed').toEqual(before);
    });
  },
);
