import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { blockedBy, holdTransactionAs } from '../support/held-transaction.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { aal2AccessTokenOf, withBearer, type TestUser } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  WORKSPACE_ROLES,
  type WorkspaceFixture,
  type WorkspaceRole,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();

const members = (fixture: WorkspaceFixture) => memberCalls(api.app, fixture);

/** Every membership of the workspace as the database holds it: user id → role and version. */
async function storedMembers(fixture: WorkspaceFixture): Promise<Record<string, string>> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ user_id: string; role: string; version: number }>(
      'select user_id, role::text, version from public.memberships where workspace_id = $1',
      [fixture.id],
    ),
  );
  return Object.fromEntries(rows.map((row) => [row.user_id, `${row.role}@${row.version}`]));
}

/** The fixture's memberships as created: each role once, at version 1. */
function initialMembers(fixture: WorkspaceFixture): Record<string, string> {
  return Object.fromEntries(WORKSPACE_ROLES.map((role) => [fixture[role].id, `${role}@1`]));
}

async function addMember(fixture: WorkspaceFixture, user: TestUser, role: WorkspaceRole): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query('insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)', [
      fixture.id,
      user.id,
      role,
    ]),
  );
}

/**
 * Spreads the fixture's joins over time, in role order (the fixture adds everyone at once): the owner
 * joined 4 minutes ago, the viewer 1. Without triggers, so that versions stay at 1.
 */
async function joinInRoleOrder(fixture: WorkspaceFixture): Promise<void> {
  await asService(api.db, async (sql) => {
    await sql.query('set local session_replication_role = replica');
    await sql.query(
      `update public.memberships m set created_at = now() - make_interval(mins => 5 - o.position::integer)
       from unnest($2::uuid[]) with ordinality as o(user_id, position)
       where m.workspace_id = $1 and m.user_id = o.user_id`,
      [fixture.id, WORKSPACE_ROLES.map((role) => fixture[role].id)],
    );
  });
}

describe('GET /api/v1/workspaces/{slug}/members', () => {
  it.each(WORKSPACE_ROLES)(
    'shows a %s every member with role and profile, in the order they joined',
    async (role) => {
      const fixture = await createWorkspaceWithRoles(api.db);
      await joinInRoleOrder(fixture);
      const response = await members(fixture).list(fixture[role].accessToken);
      expect(response.status).toBe(200);
      const list = response.body;
      expect(list.next_cursor).toBeNull();
      expect(list.data.map((member) => [member.role, member.user_id])).toEqual(
        WORKSPACE_ROLES.map((each) => [each, fixture[each].id]),
      );
      expect(list.data[0]).toEqual({
        object: 'member',
        user_id: fixture.owner.id,
        workspace_id: fixture.id,
        role: 'owner',
        display_name: 'owner',
        email: fixture.owner.email,
        avatar_url: null,
        version: 1,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    },
  );

  it('pages with limit and cursor, and Link names the next page', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await joinInRoleOrder(fixture);
    const first = await members(fixture).list(fixture.viewer.accessToken, '?limit=3');
    const page = first.body;
    expect(page.data).toHaveLength(3);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get('link')).toBe(`<?limit=3&cursor=${page.next_cursor ?? ''}>; rel="next"`);
    const second = (
      await members(fixture).list(fixture.viewer.accessToken, `?limit=3&cursor=${page.next_cursor ?? ''}`)
    ).body;
    expect(second.data.map((member) => member.user_id)).toEqual([fixture.viewer.id]);
    expect(second.next_cursor).toBeNull();
  });

  it('answers 400 to a bad cursor or limit', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await members(fixture).list(fixture.owner.accessToken, '?cursor=nonsense'),
      400,
      'bad_request',
    );
    expectProblem(await members(fixture).list(fixture.owner.accessToken, '?limit=0'), 400, 'bad_request');
  });

  it('answers 404 to an outsider and to a workspace that does not exist', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await members(fixture).list(fixture.outsider.accessToken), 404, 'not_found');
    expectProblem(
      await callApi(
        api.app,
        '/api/v1/workspaces/no-such-space/members',
        withBearer(fixture.owner.accessToken),
      ),
      404,
      'not_found',
    );
  });

  it('answers 403 mfa_required to aal1 in a workspace that requires MFA, and lists for aal2', async () => {
    const fixture = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    expectProblem(await members(fixture).list(fixture.member.accessToken), 403, 'mfa_required');
    const response = await members(fixture).list(await aal2AccessTokenOf(fixture.member));
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(4);
  });

  it('works with a read token', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const token = await createApiTokenFor(api.app, fixture.viewer, 'read');
    expect((await members(fixture).list(token)).status).toBe(200);
  });
});

describe('GET /api/v1/workspaces/{slug}/members/{user_id}', () => {
  it('answers the member with its ETag, and 304 while it is unchanged', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await members(fixture).get(fixture.viewer.accessToken, fixture.admin.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      user_id: fixture.admin.id,
      role: 'admin',
      email: fixture.admin.email,
    });
    expect(response.headers.get('etag')).toBe('"1"');
    const again = await members(fixture).get(fixture.viewer.accessToken, fixture.admin.id, {
      'If-None-Match': '"1"',
    });
    expect(again.status).toBe(304);
  });

  it.each([
    ['someone who is not a member', (fixture: WorkspaceFixture) => fixture.outsider.id],
    ['an id nobody has', () => randomUUID()],
    ['an id that is not a UUID', () => 'not-a-uuid'],
  ])('answers 404 to %s', async (_name, idOf) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await members(fixture).get(fixture.member.accessToken, idOf(fixture)), 404, 'not_found');
  });

  it('answers 404 to an outsider asking for a member', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await members(fixture).get(fixture.outsider.accessToken, fixture.owner.id),
      404,
      'not_found',
    );
  });
});

describe('PATCH /api/v1/workspaces/{slug}/members/{user_id}', () => {
  it.each([
    ['owner', 'member', 'admin'],
    ['owner', 'admin', 'owner'],
    ['owner', 'viewer', 'member'],
    ['admin', 'member', 'viewer'],
    ['admin', 'viewer', 'admin'],
    ['admin', 'admin', 'member'],
  ] as const)('lets an %s make the %s an %s', async (caller, target, role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await members(fixture).update(fixture[caller].accessToken, fixture[target].id, { role });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user_id: fixture[target].id, role, version: 2 });
    expect(response.headers.get('etag')).toBe('"2"');
    expect(await storedMembers(fixture)).toEqual({
      ...initialMembers(fixture),
      [fixture[target].id]: `${role}@2`,
    });
  });

  it.each([
    ['admin', 'member', 'owner', 'Only owners can make someone an owner.'],
    ['admin', 'admin', 'owner', 'Only owners can make someone an owner.'],
    ['admin', 'owner', 'admin', 'does not allow you to change the role of an owner'],
    ['member', 'viewer', 'member', "does not allow you to change members' roles"],
    ['viewer', 'viewer', 'member', "does not allow you to change members' roles"],
  ] as const)(
    'refuses an %s making the %s an %s with 403, and changes nothing',
    async (caller, target, role, detail) => {
      const fixture = await createWorkspaceWithRoles(api.db);
      const problem = expectProblem(
        await members(fixture).update(fixture[caller].accessToken, fixture[target].id, { role }),
        403,
        'forbidden',
      );
      expect(problem.detail).toContain(detail);
      expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
    },
  );

  it('refuses to demote the last owner with 409 last_owner, and lets them once there is another', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await members(fixture).update(fixture.owner.accessToken, fixture.owner.id, { role: 'admin' }),
      409,
      'last_owner',
    );
    expect(problem.detail).toBe(
      'You are the only owner of this workspace: make someone else an owner first.',
    );
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));

    expect(
      (await members(fixture).update(fixture.owner.accessToken, fixture.admin.id, { role: 'owner' })).status,
    ).toBe(200);
    const demoted = await members(fixture).update(fixture.admin.accessToken, fixture.owner.id, {
      role: 'member',
    });
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('member');
  });

  it('answers the member unchanged when the role is the same or absent, honouring If-Match', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const same = await members(fixture).update(fixture.owner.accessToken, fixture.member.id, {
      role: 'member',
    });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(1);
    expect((await members(fixture).update(fixture.owner.accessToken, fixture.member.id, {})).status).toBe(
      200,
    );
    const stale = expectProblem(
      await members(fixture).update(fixture.owner.accessToken, fixture.member.id, {}, { 'If-Match': '"7"' }),
      412,
      'precondition_failed',
    );
    expect(stale.current_version).toBe(1);
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it('applies a change only to the version If-Match names', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const stale = expectProblem(
      await members(fixture).update(
        fixture.owner.accessToken,
        fixture.member.id,
        { role: 'admin' },
        { 'If-Match': '"2"' },
      ),
      412,
      'precondition_failed',
    );
    expect(stale.current_version).toBe(1);
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
    const current = await members(fixture).update(
      fixture.owner.accessToken,
      fixture.member.id,
      { role: 'admin' },
      { 'If-Match': '"1"' },
    );
    expect(current.status).toBe(200);
  });

  it('lets exactly one of two concurrent changes against the same version win', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const responses = await Promise.all(
      (['admin', 'viewer'] as const).map((role) =>
        members(fixture).update(
          fixture.owner.accessToken,
          fixture.member.id,
          { role },
          { 'If-Match': '"1"' },
        ),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
  });

  it.each([
    [{ role: 'superuser' }, 'body.role', 'invalid_value'],
    [{ role: null }, 'body.role', 'invalid_value'],
    [{ role: 'admin', user_id: randomUUID() }, 'body.user_id', 'unknown_field'],
    [{ version: 3 }, 'body.version', 'unknown_field'],
  ])('refuses %j with 422 naming %s, and changes nothing', async (body, path, code) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await members(fixture).raw.update(fixture.owner.accessToken, fixture.member.id, body, {
        'Content-Type': 'application/merge-patch+json',
      }),
      422,
      'validation_failed',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ path, code }));
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it('answers 404 to a user who is not a member, and to an outsider', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await members(fixture).update(fixture.owner.accessToken, fixture.outsider.id, { role: 'admin' }),
      404,
      'not_found',
    );
    expectProblem(
      await members(fixture).update(fixture.outsider.accessToken, fixture.member.id, { role: 'admin' }),
      404,
      'not_found',
    );
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it('refuses a read token with 403 insufficient_scope, and takes a write token', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const reader = await createApiTokenFor(api.app, fixture.owner, 'read');
    expectProblem(
      await members(fixture).update(reader, fixture.member.id, { role: 'admin' }),
      403,
      'insufficient_scope',
    );
    const writer = await createApiTokenFor(api.app, fixture.owner, 'write');
    expect((await members(fixture).update(writer, fixture.member.id, { role: 'admin' })).status).toBe(200);
  });

  it('answers 403 mfa_required to an aal1 owner in a workspace that requires MFA', async () => {
    const fixture = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    expectProblem(
      await members(fixture).update(fixture.owner.accessToken, fixture.member.id, { role: 'admin' }),
      403,
      'mfa_required',
    );
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
    const aal2 = await aal2AccessTokenOf(fixture.owner);
    expect((await members(fixture).update(aal2, fixture.member.id, { role: 'admin' })).status).toBe(200);
  });
});

describe('DELETE /api/v1/workspaces/{slug}/members/{user_id}', () => {
  it.each(['admin', 'member', 'viewer'] as const)('lets a %s leave', async (role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const response = await members(fixture).remove(fixture[role].accessToken, fixture[role].id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const { [fixture[role].id]: _gone, ...rest } = initialMembers(fixture);
    expect(await storedMembers(fixture)).toEqual(rest);
    expectProblem(await members(fixture).list(fixture[role].accessToken), 404, 'not_found');
  });

  it('refuses the last owner leaving with 409 last_owner, and lets them once there is another', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await members(fixture).remove(fixture.owner.accessToken, fixture.owner.id),
      409,
      'last_owner',
    );
    expect(problem.detail).toContain('You are the only owner');
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));

    await members(fixture).update(fixture.owner.accessToken, fixture.admin.id, { role: 'owner' });
    expect((await members(fixture).remove(fixture.owner.accessToken, fixture.owner.id)).status).toBe(204);
  });

  it('refuses the second of two owners leaving at once with 409 last_owner: the workspace keeps one', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await addMember(fixture, fixture.outsider, 'owner');
    const observer = new pg.Client({ connectionString: api.databaseUrl });
    await observer.connect();
    // The other owner leaves straight through SQL (as /rest/v1 would), in a transaction held open.
    const held = await holdTransactionAs(api.databaseUrl, fixture.outsider.id);
    try {
      expect(
        await held.run('delete from public.memberships where workspace_id = $1 and user_id = $2', [
          fixture.id,
          fixture.outsider.id,
        ]),
      ).toEqual({ rows: [] });
      const leaving = members(fixture).remove(fixture.owner.accessToken, fixture.owner.id);
      expect(await blockedBy(observer, held.pid, leaving)).toBe('blocked');
      await held.commit();
      const problem = expectProblem(await leaving, 409, 'last_owner');
      expect(problem.detail).toContain('You are the only owner');
    } finally {
      await held.close();
      await observer.end();
    }
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it.each([
    ['owner', 'admin'],
    ['owner', 'viewer'],
    ['admin', 'member'],
    ['admin', 'viewer'],
  ] as const)('lets an %s remove the %s', async (caller, target) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expect((await members(fixture).remove(fixture[caller].accessToken, fixture[target].id)).status).toBe(204);
    const { [fixture[target].id]: _gone, ...rest } = initialMembers(fixture);
    expect(await storedMembers(fixture)).toEqual(rest);
  });

  it('lets an owner remove another owner, and an admin another admin', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await addMember(fixture, fixture.outsider, 'owner');
    expect((await members(fixture).remove(fixture.owner.accessToken, fixture.outsider.id)).status).toBe(204);
    await addMember(fixture, fixture.outsider, 'admin');
    expect((await members(fixture).remove(fixture.admin.accessToken, fixture.outsider.id)).status).toBe(204);
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it.each([
    ['admin', 'owner', 'does not allow you to remove an owner'],
    ['member', 'viewer', 'does not allow you to remove other members'],
    ['viewer', 'member', 'does not allow you to remove other members'],
    ['member', 'admin', 'does not allow you to remove other members'],
  ] as const)(
    'refuses an %s removing the %s with 403, and removes nobody',
    async (caller, target, detail) => {
      const fixture = await createWorkspaceWithRoles(api.db);
      const problem = expectProblem(
        await members(fixture).remove(fixture[caller].accessToken, fixture[target].id),
        403,
        'forbidden',
      );
      expect(problem.detail).toContain(detail);
      expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
    },
  );

  it('removes only the version If-Match names', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const stale = expectProblem(
      await members(fixture).remove(fixture.owner.accessToken, fixture.member.id, { 'If-Match': '"4"' }),
      412,
      'precondition_failed',
    );
    expect(stale.current_version).toBe(1);
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
    expect(
      (await members(fixture).remove(fixture.owner.accessToken, fixture.member.id, { 'If-Match': '"1"' }))
        .status,
    ).toBe(204);
  });

  it.each([
    ['someone who is not a member', (fixture: WorkspaceFixture) => fixture.outsider.id],
    ['an id nobody has', () => randomUUID()],
    ['an id that is not a UUID', () => '12345'],
  ])('answers 404 to %s', async (_name, idOf) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await members(fixture).remove(fixture.owner.accessToken, idOf(fixture)), 404, 'not_found');
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it('answers 404 to an outsider, who removes nobody', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await members(fixture).remove(fixture.outsider.accessToken, fixture.member.id),
      404,
      'not_found',
    );
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const reader = await createApiTokenFor(api.app, fixture.member, 'read');
    expectProblem(await members(fixture).remove(reader, fixture.member.id), 403, 'insufficient_scope');
    expect(await storedMembers(fixture)).toEqual(initialMembers(fixture));
  });
});
