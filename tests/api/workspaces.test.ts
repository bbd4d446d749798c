import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACES_PER_USER } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { WORKSPACES, workspaceCalls } from '../support/resource-calls.ts';
import {
  aal2AccessTokenOf,
  createTestUser,
  insertMfaFactor,
  withBearer,
  type TestUser,
} from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();

const workspaces = () => workspaceCalls(api.app);

const uniqueSlug = () => `team-${randomUUID().slice(0, 8)}`;

interface StoredWorkspace extends Record<string, unknown> {
  name: string;
  slug: string;
  require_mfa: boolean;
  version: number;
}

async function stored(id: string): Promise<StoredWorkspace | undefined> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<StoredWorkspace>(
      'select name, slug, require_mfa, version from public.workspaces where id = $1',
      [id],
    ),
  );
  return row;
}

async function rolesIn(id: string): Promise<Record<string, string>> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ user_id: string; role: string }>(
      'select user_id, role::text from public.memberships where workspace_id = $1',
      [id],
    ),
  );
  return Object.fromEntries(rows.map((row) => [row.user_id, row.role]));
}

async function insertWorkspacesCreatedBy(user: TestUser, count: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.workspaces (slug, name, created_by)
       select 'filler-' || substr(md5(random()::text), 1, 12), 'Filler', $1 from generate_series(1, $2)`,
      [user.id, count],
    ),
  );
}

let ada: TestUser;
beforeAll(async () => {
  ada = await createTestUser(api.db, { displayName: 'Ada' });
});

describe('POST /api/v1/workspaces', () => {
  it('creates a workspace whose owner is the caller', async () => {
    const slug = uniqueSlug();
    const response = await workspaces().create(ada.accessToken, { name: '  Acme  ', slug });
    expect(response.status).toBe(201);
    const workspace = response.body;
    expect(workspace).toMatchObject({
      object: 'workspace',
      slug,
      name: 'Acme',
      require_mfa: false,
      role: 'owner',
      created_by: ada.id,
      version: 1,
    });
    expect(response.headers.get('Location')).toBe(`workspaces/${slug}`);
    expect(response.headers.get('ETag')).toBe('"1"');
    expect(await rolesIn(workspace.id)).toEqual({ [ada.id]: 'owner' });
  });

  it('refuses a slug in use with 409 slug_taken, naming the field', async () => {
    const slug = uniqueSlug();
    expect((await workspaces().create(ada.accessToken, { name: 'First', slug })).status).toBe(201);
    const grace = await createTestUser(api.db);
    const problem = expectProblem(
      await workspaces().create(grace.accessToken, { name: 'Second', slug }),
      409,
      'slug_taken',
    );
    expect(problem.errors).toEqual([{ path: 'body.slug', code: 'slug_taken', message: 'is already taken' }]);
    const [count] = await asService(api.db, (sql) =>
      sql.query<{ n: number }>('select count(*)::int as n from public.workspaces where created_by = $1', [
        grace.id,
      ]),
    );
    expect(count?.n).toBe(0);
  });

  it.each([
    [{ name: 'Acme', slug: 'admin' }, 'body.slug', 'invalid'],
    [{ name: 'Acme', slug: 'Acme' }, 'body.slug', 'invalid_format'],
    [{ name: 'Acme', slug: 'a--b' }, 'body.slug', 'invalid_format'],
    [{ name: 'Acme', slug: 'ab' }, 'body.slug', 'too_short'],
    [{ name: '   ', slug: 'valid-slug' }, 'body.name', 'too_short'],
    [{ name: 'x'.repeat(81), slug: 'valid-slug' }, 'body.name', 'too_long'],
    [{ slug: 'valid-slug' }, 'body.name', 'required'],
    [{ name: 'Acme', slug: 'valid-slug', require_mfa: true }, 'body.require_mfa', 'unknown_field'],
    [{ name: 'Ac\u0000me', slug: 'valid-slug' }, 'body.name', 'invalid_character'],
  ])('refuses %j with 422 naming %s', async (body, path, code) => {
    const problem = expectProblem(
      await workspaces().raw.create(ada.accessToken, body),
      422,
      'validation_failed',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ path, code }));
  });

  it(`stops at ${WORKSPACES_PER_USER} workspaces created, with 409 limit_reached`, async () => {
    const grace = await createTestUser(api.db);
    await insertWorkspacesCreatedBy(grace, WORKSPACES_PER_USER);
    const problem = expectProblem(
      await workspaces().create(grace.accessToken, { name: 'One too many', slug: uniqueSlug() }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toContain('workspaces_per_user');
  });

  it('lets only one of two concurrent creations at the limit through', async () => {
    const grace = await createTestUser(api.db);
    await insertWorkspacesCreatedBy(grace, WORKSPACES_PER_USER - 1);
    const responses = await Promise.all(
      [uniqueSlug(), uniqueSlug()].map((slug) =>
        workspaces().create(grace.accessToken, { name: 'Race', slug }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
  });

  it('creates once when the same idempotent request is sent 20 times at once', async () => {
    const grace = await createTestUser(api.db);
    const slug = uniqueSlug();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        workspaces().create(grace.accessToken, { name: 'Once', slug }, { 'Idempotency-Key': key }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const conflicts = responses.filter((response) => response.status === 409);
    for (const conflict of conflicts) expectProblem(conflict, 409, 'idempotency_key_in_use');
    const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const [count] = await asService(api.db, (sql) =>
      sql.query<{ n: number }>('select count(*)::int as n from public.workspaces where slug = $1', [slug]),
    );
    expect(count?.n).toBe(1);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const token = await createApiTokenFor(api.app, ada, 'read');
    expectProblem(
      await workspaces().create(token, { name: 'Nope', slug: uniqueSlug() }),
      403,
      'insufficient_scope',
    );
  });
});

describe('GET /api/v1/workspaces', () => {
  it("lists the caller's workspaces with their role, page by page", async () => {
    const grace = await createTestUser(api.db);
    const owned = (await workspaces().create(grace.accessToken, { name: 'Mine', slug: uniqueSlug() })).body;
    const fixture = await createWorkspaceWithRoles(api.db);
    await asService(api.db, (sql) =>
      sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'viewer')`, [
        fixture.id,
        grace.id,
      ]),
    );
    const first = await workspaces().list(grace.accessToken, '?limit=1');
    expect(first.status).toBe(200);
    const firstPage = first.body;
    expect(firstPage.data.map((w) => [w.slug, w.role])).toEqual([[owned.slug, 'owner']]);
    expect(firstPage.next_cursor).not.toBeNull();
    expect(first.headers.get('Link')).toMatch(/^<\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const second = await workspaces().list(grace.accessToken, `?limit=1&cursor=${firstPage.next_cursor}`);
    const secondPage = second.body;
    expect(secondPage.data.map((w) => [w.slug, w.role])).toEqual([[fixture.slug, 'viewer']]);
    expect(secondPage.next_cursor).toBeNull();
  });

  it('answers an empty list to someone in no workspace', async () => {
    const loner = await createTestUser(api.db);
    const response = await callApi(api.app, WORKSPACES, withBearer(loner.accessToken));
    expect(response.body).toEqual({ object: 'list', data: [], next_cursor: null });
  });

  it('refuses a cursor it did not issue with 400', async () => {
    expectProblem(
      await callApi(api.app, `${WORKSPACES}?cursor=bogus`, withBearer(ada.accessToken)),
      400,
      'bad_request',
    );
  });
});

describe('GET /api/v1/workspaces/{slug}', () => {
  let fixture: WorkspaceFixture;
  beforeAll(async () => {
    fixture = await createWorkspaceWithRoles(api.db);
  });

  it.each(['owner', 'admin', 'member', 'viewer'] as const)(
    'answers a %s with the role and an ETag',
    async (role) => {
      const response = await workspaces().get(fixture[role].accessToken, fixture.slug);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: fixture.id, slug: fixture.slug, role });
      expect(response.headers.get('ETag')).toBe(`"${response.body.version}"`);
    },
  );

  it('answers 404 to an outsider, exactly as for a workspace that does not exist', async () => {
    const outsider = expectProblem(
      await workspaces().get(fixture.outsider.accessToken, fixture.slug),
      404,
      'not_found',
    );
    const missing = expectProblem(
      await workspaces().get(fixture.outsider.accessToken, 'no-such-team'),
      404,
      'not_found',
    );
    expect(outsider.detail).toBe(missing.detail.replace('no-such-team', fixture.slug));
  });

  it('answers 304 when If-None-Match names the current version', async () => {
    const response = await workspaces().get(fixture.member.accessToken, fixture.slug, {
      'If-None-Match': '"1"',
    });
    expect(response.status).toBe(304);
    expect(response.text).toBe('');
    expect(response.headers.get('ETag')).toBe('"1"');
  });
});

describe('a workspace that requires MFA', () => {
  let fixture: WorkspaceFixture;
  beforeAll(async () => {
    fixture = await createWorkspaceWithRoles(api.db, { requireMfa: true });
  });

  it('refuses an aal1 session with 403 mfa_required', async () => {
    expectProblem(await workspaces().get(fixture.member.accessToken, fixture.slug), 403, 'mfa_required');
  });

  it('answers an aal2 session', async () => {
    expect((await workspaces().get(await aal2AccessTokenOf(fixture.member), fixture.slug)).status).toBe(200);
  });

  it('refuses the API token of someone without a verified factor, and answers one of someone with it', async () => {
    const withoutFactor = await createApiTokenFor(api.app, fixture.viewer, 'read');
    expectProblem(await workspaces().get(withoutFactor, fixture.slug), 403, 'mfa_required');
    const person = await createTestUser(api.db);
    await asService(api.db, (sql) =>
      sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'member')`, [
        fixture.id,
        person.id,
      ]),
    );
    await insertMfaFactor(api.db, person.id);
    const withFactor = await createApiTokenFor(
      api.app,
      { ...person, accessToken: await aal2AccessTokenOf(person) },
      'read',
    );
    expect((await workspaces().get(withFactor, fixture.slug)).status).toBe(200);
  });

  it('still lists the workspace, so the web app can say why it is refused', async () => {
    const response = await workspaces().list(fixture.member.accessToken);
    expect(response.body.data.map((w) => w.slug)).toContain(fixture.slug);
  });
});

describe('PATCH /api/v1/workspaces/{slug}', () => {
  it('lets an admin rename it and bumps the version', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await workspaces().update(fixture.admin.accessToken, fixture.slug, {
      name: 'Acme Inc.',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Acme Inc.', version: 2, role: 'admin' });
    expect(response.headers.get('ETag')).toBe('"2"');
    expect(await stored(fixture.id)).toMatchObject({ name: 'Acme Inc.', version: 2 });
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403 and changes nothing', async (role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await workspaces().update(fixture[role].accessToken, fixture.slug, { name: 'Hijacked' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toContain(`(${role})`);
    expect(await stored(fixture.id)).toMatchObject({ name: 'Acme', version: 1 });
  });

  it('moves the workspace to a new slug; the old one is 404', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const slug = uniqueSlug();
    expect((await workspaces().update(fixture.owner.accessToken, fixture.slug, { slug })).status).toBe(200);
    expect((await workspaces().get(fixture.owner.accessToken, slug)).status).toBe(200);
    expectProblem(await workspaces().get(fixture.owner.accessToken, fixture.slug), 404, 'not_found');
  });

  it('refuses a slug in use with 409 slug_taken', async () => {
    const [fixture, other] = await Promise.all([
      createWorkspaceWithRoles(api.db),
      createWorkspaceWithRoles(api.db),
    ]);
    expectProblem(
      await workspaces().update(fixture.owner.accessToken, fixture.slug, { slug: other.slug }),
      409,
      'slug_taken',
    );
    expect((await stored(fixture.id))?.slug).toBe(fixture.slug);
  });

  it('refuses read-only and unknown fields, and null for a field that cannot be cleared', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    for (const body of [{ id: randomUUID() }, { role: 'owner' }, { name: null }, { require_mfa: 'yes' }]) {
      expectProblem(
        await workspaces().raw.update(fixture.owner.accessToken, fixture.slug, body),
        422,
        'validation_failed',
      );
    }
    expect((await stored(fixture.id))?.version).toBe(1);
  });

  it('answers an empty patch with the workspace unchanged', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await workspaces().update(fixture.owner.accessToken, fixture.slug, {});
    expect(response.body.version).toBe(1);
    expectProblem(
      await workspaces().update(fixture.owner.accessToken, fixture.slug, {}, { 'If-Match': '"7"' }),
      412,
      'precondition_failed',
    );
  });

  it('answers 412 with the current version when If-Match is stale', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await workspaces().update(fixture.owner.accessToken, fixture.slug, { name: 'Second' });
    const problem = expectProblem(
      await workspaces().update(
        fixture.owner.accessToken,
        fixture.slug,
        { name: 'Third' },
        { 'If-Match': '"1"' },
      ),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(2);
    expect(await stored(fixture.id)).toMatchObject({ name: 'Second', version: 2 });
  });

  it('lets exactly one of concurrent PATCHes with the same If-Match win', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const responses = await Promise.all(
      ['One', 'Two', 'Three', 'Four', 'Five'].map((name) =>
        workspaces().update(fixture.owner.accessToken, fixture.slug, { name }, { 'If-Match': '"1"' }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 412)).toHaveLength(4);
    const winner = responses.find((response) => response.status === 200)?.body;
    if (!winner) throw new Error('no PATCH won');
    expect(await stored(fixture.id)).toMatchObject({ name: winner.name, version: 2 });
  });

  describe('require_mfa', () => {
    it('is turned on only from an aal2 session', async () => {
      const fixture = await createWorkspaceWithRoles(api.db);
      const problem = expectProblem(
        await workspaces().update(fixture.admin.accessToken, fixture.slug, { require_mfa: true }),
        403,
        'mfa_required',
      );
      expect(problem.detail).toContain('second factor');
      expect((await stored(fixture.id))?.require_mfa).toBe(false);
      const response = await workspaces().update(await aal2AccessTokenOf(fixture.admin), fixture.slug, {
        require_mfa: true,
      });
      expect(response.status).toBe(200);
      expect((await stored(fixture.id))?.require_mfa).toBe(true);
    });

    it('is never turned on by an API token, even of someone with a verified factor', async () => {
      const fixture = await createWorkspaceWithRoles(api.db);
      await insertMfaFactor(api.db, fixture.owner.id);
      const token = await createApiTokenFor(
        api.app,
        { ...fixture.owner, accessToken: await aal2AccessTokenOf(fixture.owner) },
        'write',
      );
      const problem = expectProblem(
        await workspaces().update(token, fixture.slug, { require_mfa: true }),
        403,
        'mfa_required',
      );
      expect(problem.detail).toContain('API tokens');
      expect((await stored(fixture.id))?.require_mfa).toBe(false);
    });

    it('is turned off by an admin at aal2', async () => {
      const fixture = await createWorkspaceWithRoles(api.db, { requireMfa: true });
      const response = await workspaces().update(await aal2AccessTokenOf(fixture.admin), fixture.slug, {
        require_mfa: false,
      });
      expect(response.body.require_mfa).toBe(false);
    });
  });
});

describe('DELETE /api/v1/workspaces/{slug}', () => {
  it.each(['admin', 'member', 'viewer'] as const)('refuses a %s with 403', async (role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await workspaces().remove(fixture[role].accessToken, fixture.slug), 403, 'forbidden');
    expect(await stored(fixture.id)).toBeDefined();
  });

  it('answers 404 to an outsider', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await workspaces().remove(fixture.outsider.accessToken, fixture.slug), 404, 'not_found');
    expect(await stored(fixture.id)).toBeDefined();
  });

  it('answers 412 when If-Match is stale, and deletes nothing', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await workspaces().remove(fixture.owner.accessToken, fixture.slug, { 'If-Match': '"9"' }),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(1);
    expect(await stored(fixture.id)).toBeDefined();
  });

  it('lets the owner delete it with its memberships', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await workspaces().remove(fixture.owner.accessToken, fixture.slug, {
      'If-Match': '"1"',
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await stored(fixture.id)).toBeUndefined();
    expect(await rolesIn(fixture.id)).toEqual({});
    expectProblem(await workspaces().get(fixture.owner.accessToken, fixture.slug), 404, 'not_found');
  });
});
