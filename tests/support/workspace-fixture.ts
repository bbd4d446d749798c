/**
 * A workspace with one person in each role and one outsider, inserted directly as the service, for API
 * tests of everything under /v1/workspaces/{slug}. Also API tokens for any of them, made through the API.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { beforeAll, expect } from 'vitest';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { WorkspaceRole } from '../../supabase/functions/_shared/api-types.ts';
import { WORKSPACE_ROLES } from '../../supabase/functions/api/members/members.schemas.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { meCalls } from './me-calls.ts';
import { createTestUser, type TestUser } from './test-users.ts';
import { asService } from './service-transaction.ts';

export { WORKSPACE_ROLES, type WorkspaceRole };

export interface WorkspaceFixture {
  id: string;
  slug: string;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  viewer: TestUser;
  /** Signed in, but no member of this workspace. */
  outsider: TestUser;
  /** `/api/v1/workspaces/<slug>`, the prefix of every address in it. */
  path: string;
}

export interface WorkspaceFixtureOptions {
  requireMfa?: boolean;
  name?: string;
}

export async function createWorkspaceWithRoles(
  db: Database,
  { requireMfa = false, name = 'Acme' }: WorkspaceFixtureOptions = {},
): Promise<WorkspaceFixture> {
  const slug = `ws-${randomUUID().slice(0, 8)}`;
  const [owner, admin, member, viewer, outsider] = await Promise.all(
    ['owner', 'admin', 'member', 'viewer', 'outsider'].map((role) =>
      createTestUser(db, { email: `${role}-${randomUUID().slice(0, 8)}@example.com`, displayName: role }),
    ),
  );
  if (!owner || !admin || !member || !viewer || !outsider) throw new Error('createTestUser failed');
  const id = await asService(db, async (sql) => {
    const [workspace] = await sql.query<{ id: string }>(
      `insert into public.workspaces (slug, name, require_mfa, created_by) values ($1, $2, $3, $4) returning id`,
      [slug, name, requireMfa, owner.id],
    );
    if (!workspace) throw new Error('insert into workspaces returned no row');
    await sql.query(
      `insert into public.memberships (workspace_id, user_id, role)
       select $1, unnest($2::uuid[]), unnest($3::public.workspace_role[])`,
      [workspace.id, [owner.id, admin.id, member.id, viewer.id], WORKSPACE_ROLES],
    );
    return workspace.id;
  });
  return { id, slug, owner, admin, member, viewer, outsider, path: `/api/v1/workspaces/${slug}` };
}

/** The two tenants of an API test file: `acme`, where its tests act, and `globex`, a neighbour they must not reach. */
export interface TwoWorkspaces {
  acme: WorkspaceFixture;
  globex: WorkspaceFixture;
}

/**
 * Two workspaces made with createWorkspaceWithRoles before the file's tests (after `useTestApp` made the
 * app, when called after it). Like useTestApp's app, they can be named at the top of the file and read
 * inside tests.
 */
export function useTwoWorkspaces(api: { readonly db: Database }): TwoWorkspaces {
  let made: TwoWorkspaces | undefined;
  beforeAll(async () => {
    const [acme, globex] = await Promise.all([
      createWorkspaceWithRoles(api.db),
      createWorkspaceWithRoles(api.db),
    ]);
    made = { acme, globex };
  });
  const current = (name: keyof TwoWorkspaces) => () => {
    if (!made) throw new Error('useTwoWorkspaces(): the workspaces exist only inside tests');
    return made[name];
  };
  return { acme: readLater(current('acme')), globex: readLater(current('globex')) };
}

/** A WorkspaceFixture whose fields are read from `current()` when they are used. */
function readLater(current: () => WorkspaceFixture): WorkspaceFixture {
  return {
    get id() {
      return current().id;
    },
    get slug() {
      return current().slug;
    },
    get owner() {
      return current().owner;
    },
    get admin() {
      return current().admin;
    },
    get member() {
      return current().member;
    },
    get viewer() {
      return current().viewer;
    },
    get outsider() {
      return current().outsider;
    },
    get path() {
      return current().path;
    },
  };
}

/** Creates a personal API token for `user` through the API and returns its secret. */
export async function createApiTokenFor(
  app: Hono<AppEnv>,
  user: TestUser,
  scope: 'read' | 'write',
): Promise<string> {
  const response = await meCalls(app).createToken(user.accessToken, { name: `${scope} token`, scope });
  expect(response.status).toBe(201);
  return response.body.token;
}
