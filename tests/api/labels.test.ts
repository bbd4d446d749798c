import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { LABELS_PER_WORKSPACE } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { expectProblem } from '../support/api-request.ts';
import { ISO_TIMESTAMP, labelCalls } from '../support/resource-calls.ts';
import { aal2AccessTokenOf } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
  useTwoWorkspaces,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type Label = components['schemas']['Label'];
type CreateLabel = components['schemas']['CreateLabel'];

const api = useTestApp();
const labels = (workspace: WorkspaceFixture) => labelCalls(api.app, workspace);

const uniqueName = () => `label ${randomUUID().slice(0, 8)}`;

interface StoredLabel extends Record<string, unknown> {
  id: string;
  name: string;
  color: string;
  created_by: string | null;
  version: number;
}

/** The workspace's labels as the database holds them, by id. */
async function storedLabels(workspace: WorkspaceFixture): Promise<StoredLabel[]> {
  return asService(api.db, (sql) =>
    sql.query<StoredLabel>(
      'select id, name, color, created_by, version from public.labels where workspace_id = $1 order by id',
      [workspace.id],
    ),
  );
}

async function storedLabel(workspace: WorkspaceFixture, id: string): Promise<StoredLabel | undefined> {
  return (await storedLabels(workspace)).find((label) => label.id === id);
}

/** Labels made as the service, as if members had created them earlier. */
async function insertLabels(workspace: WorkspaceFixture, count: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.labels (workspace_id, name, color, created_by)
       select $1, 'filler ' || n, '#cccccc', $2 from generate_series(1, $3) n`,
      [workspace.id, workspace.member.id, count],
    ),
  );
}

/** A label the member creates through the API. */
async function labelIn(workspace: WorkspaceFixture, fields: Partial<CreateLabel> = {}): Promise<Label> {
  const response = await labels(workspace).create(workspace.member.accessToken, {
    name: uniqueName(),
    color: '#00ff00',
    ...fields,
  });
  expect(response.status).toBe(201);
  return response.body;
}

const { acme, globex } = useTwoWorkspaces(api);

describe('POST /api/v1/workspaces/{slug}/labels', () => {
  it('lets a member create a label, its color stored in lower case', async () => {
    const response = await labels(acme).create(acme.member.accessToken, {
      name: '  Bug  ',
      color: '#D73A4A',
    });
    expect(response.status).toBe(201);
    const label = response.body;
    expect(label).toEqual({
      object: 'label',
      id: expect.any(String),
      workspace_id: acme.id,
      name: 'Bug',
      color: '#d73a4a',
      created_by: acme.member.id,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: label.created_at,
    });
    expect(response.headers.get('Location')).toBe(`labels/${label.id}`);
    expect(response.headers.get('ETag')).toBe('"1"');
    expect(await storedLabel(acme, label.id)).toEqual({
      id: label.id,
      name: 'Bug',
      color: '#d73a4a',
      created_by: acme.member.id,
      version: 1,
    });
  });

  it.each(['owner', 'admin'] as const)('lets an %s create one', async (role) => {
    const response = await labels(acme).create(acme[role].accessToken, {
      name: uniqueName(),
      color: '#123abc',
    });
    expect(response.body.created_by).toBe(acme[role].id);
  });

  it('refuses a viewer with 403 forbidden and creates nothing', async () => {
    const before = await storedLabels(acme);
    const problem = expectProblem(
      await labels(acme).create(acme.viewer.accessToken, { name: uniqueName(), color: '#000000' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe('Your role in this workspace (viewer) does not allow you to create labels.');
    expect(await storedLabels(acme)).toEqual(before);
  });

  it('answers 404 to an outsider and to another workspace member', async () => {
    const before = await storedLabels(acme);
    for (const user of [acme.outsider, globex.owner]) {
      expectProblem(
        await labels(acme).create(user.accessToken, { name: uniqueName(), color: '#000000' }),
        404,
        'not_found',
      );
    }
    expect(await storedLabels(acme)).toEqual(before);
  });

  it.each([
    [{ name: '', color: '#000000' }, 'body.name'],
    [{ name: '   ', color: '#000000' }, 'body.name'],
    [{ name: 'x'.repeat(33), color: '#000000' }, 'body.name'],
    [{ name: 'Bug', color: 'red' }, 'body.color'],
    [{ name: 'Bug', color: '#abc' }, 'body.color'],
    [{ name: 'Bug', color: '#gggggg' }, 'body.color'],
    [{ name: 'Bug', color: '000000' }, 'body.color'],
    [{ name: 'Bug' }, 'body.color'],
    [{ name: 'Bug', color: '#000000', workspace_id: randomUUID() }, 'body.workspace_id'],
  ])('refuses %j with 422 naming %s', async (body, path) => {
    const before = await storedLabels(acme);
    const problem = expectProblem(
      await labels(acme).raw.create(acme.member.accessToken, body),
      422,
      'validation_failed',
    );
    expect(new Set(problem.errors?.map((error) => error.path))).toEqual(new Set([path]));
    expect(await storedLabels(acme)).toEqual(before);
  });

  it('accepts a name of 32 characters after trimming', async () => {
    const name = 'y'.repeat(32);
    expect(
      (await labels(acme).create(acme.member.accessToken, { name: ` ${name} `, color: '#000000' })).body.name,
    ).toBe(name);
  });

  it('refuses a name the workspace has, whatever the case, with 409 label_exists', async () => {
    const existing = await labelIn(acme, { name: 'Needs Review' });
    const problem = expectProblem(
      await labels(acme).create(acme.admin.accessToken, { name: 'needs REVIEW', color: '#000000' }),
      409,
      'label_exists',
    );
    expect(problem.detail).toBe(
      'This workspace already has a label named "needs REVIEW" (names are compared whatever the case).',
    );
    expect(problem.errors).toEqual([
      { path: 'body.name', code: 'label_exists', message: 'is already taken' },
    ]);
    const named = (await storedLabels(acme)).filter((label) => label.name.toLowerCase() === 'needs review');
    expect(named.map((label) => label.id)).toEqual([existing.id]);
    expect(
      (await labels(globex).create(globex.member.accessToken, { name: 'Needs Review', color: '#000000' }))
        .status,
    ).toBe(201);
  });

  it(`refuses the label past ${LABELS_PER_WORKSPACE} with 409 limit_reached`, async () => {
    const full = await createWorkspaceWithRoles(api.db);
    await insertLabels(full, LABELS_PER_WORKSPACE);
    const problem = expectProblem(
      await labels(full).create(full.member.accessToken, { name: uniqueName(), color: '#000000' }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toContain('(labels_per_workspace)');
    expect(await storedLabels(full)).toHaveLength(LABELS_PER_WORKSPACE);
  });

  it('lets exactly one of two concurrent creations take the last place', async () => {
    const nearlyFull = await createWorkspaceWithRoles(api.db);
    await insertLabels(nearlyFull, LABELS_PER_WORKSPACE - 1);
    const responses = await Promise.all(
      [nearlyFull.member, nearlyFull.admin].map((user) =>
        labels(nearlyFull).create(user.accessToken, { name: uniqueName(), color: '#000000' }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const refused = responses.find((response) => response.status === 409);
    expect(refused && expectProblem(refused, 409, 'limit_reached').code).toBe('limit_reached');
    expect(await storedLabels(nearlyFull)).toHaveLength(LABELS_PER_WORKSPACE);
  });

  it('answers aal1 sessions 403 mfa_required in a workspace that requires MFA, and lets aal2 in', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const body = { name: uniqueName(), color: '#000000' };
    expectProblem(await labels(strict).create(strict.member.accessToken, body), 403, 'mfa_required');
    expect(await storedLabels(strict)).toEqual([]);
    expect((await labels(strict).create(await aal2AccessTokenOf(strict.member), body)).status).toBe(201);
  });

  it('refuses a read token with 403 insufficient_scope and takes a write token', async () => {
    const before = await storedLabels(acme);
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(
      await labels(acme).create(readToken, { name: uniqueName(), color: '#000000' }),
      403,
      'insufficient_scope',
    );
    expect(await storedLabels(acme)).toEqual(before);
    const writeToken = await createApiTokenFor(api.app, acme.member, 'write');
    expect((await labels(acme).create(writeToken, { name: uniqueName(), color: '#000000' })).status).toBe(
      201,
    );
  });
});

describe('GET /api/v1/workspaces/{slug}/labels', () => {
  let listed: WorkspaceFixture;
  beforeAll(async () => {
    listed = await createWorkspaceWithRoles(api.db);
    for (const name of ['delta', 'Bravo', 'alpha', 'Charlie', 'echo']) await labelIn(listed, { name });
  });

  it('lists the labels by name, case ignored, to any member', async () => {
    for (const user of [listed.owner, listed.admin, listed.member, listed.viewer]) {
      const response = await labels(listed).list(user.accessToken);
      expect(response.status).toBe(200);
      const list = response.body;
      expect(list.data.map((label) => label.name)).toEqual(['alpha', 'Bravo', 'Charlie', 'delta', 'echo']);
      expect(list.next_cursor).toBeNull();
      expect(response.headers.get('Link')).toBeNull();
    }
  });

  it('walks every label once, two at a time, following Link', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    for (let pages = 0; pages < 10; pages += 1) {
      const response = await labels(listed).list(listed.viewer.accessToken, query);
      const page = response.body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((label) => label.name));
      if (!page.next_cursor) break;
      const link = response.headers.get('Link');
      expect(link).toBe(`<?limit=2&cursor=${page.next_cursor}>; rel="next"`);
      query = link?.slice(1, link.indexOf('>')) ?? '';
    }
    expect(seen).toEqual(['alpha', 'Bravo', 'Charlie', 'delta', 'echo']);
  });

  it('refuses a cursor that does not fit this list, and a query parameter it does not take, with 400', async () => {
    expectProblem(
      await labels(listed).list(listed.viewer.accessToken, '?cursor=WzEsMl0'),
      400,
      'bad_request',
    );
    expectProblem(
      await labels(listed).list(listed.viewer.accessToken, '?include_archived=true'),
      400,
      'bad_request',
    );
  });

  it('answers 404 to an outsider and 403 mfa_required to aal1 in a workspace that requires MFA', async () => {
    expectProblem(await labels(listed).list(listed.outsider.accessToken), 404, 'not_found');
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    expectProblem(await labels(strict).list(strict.viewer.accessToken), 403, 'mfa_required');
    expect((await labels(strict).list(await aal2AccessTokenOf(strict.viewer))).status).toBe(200);
  });
});

describe('GET /api/v1/workspaces/{slug}/labels/{id}', () => {
  it('answers any member the label with its ETag, and 304 while it is unchanged', async () => {
    const label = await labelIn(acme);
    const response = await labels(acme).get(acme.viewer.accessToken, label.id);
    expect(response.body).toEqual(label);
    expect(response.headers.get('ETag')).toBe('"1"');
    const notModified = await labels(acme).get(acme.viewer.accessToken, label.id, { 'If-None-Match': '"1"' });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
  });

  it('answers 404 for an unknown id, a non-UUID id, an outsider and through another workspace', async () => {
    const label = await labelIn(acme);
    expectProblem(await labels(acme).get(acme.admin.accessToken, randomUUID()), 404, 'not_found');
    expectProblem(await labels(acme).get(acme.admin.accessToken, 'not-a-uuid'), 404, 'not_found');
    expectProblem(await labels(acme).get(acme.outsider.accessToken, label.id), 404, 'not_found');
    expectProblem(await labels(globex).get(globex.owner.accessToken, label.id), 404, 'not_found');
  });
});

describe('PATCH /api/v1/workspaces/{slug}/labels/{id}', () => {
  it('lets an admin rename and recolor a label, bumping its version', async () => {
    const label = await labelIn(acme);
    const name = uniqueName();
    const response = await labels(acme).update(acme.admin.accessToken, label.id, {
      name: ` ${name} `,
      color: '#ABCDEF',
    });
    expect(response.body).toEqual({
      ...label,
      name,
      color: '#abcdef',
      version: 2,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(response.headers.get('ETag')).toBe('"2"');
    expect(await storedLabel(acme, label.id)).toMatchObject({ name, color: '#abcdef', version: 2 });
  });

  it("lets a label change the case of its own name, but not take another's", async () => {
    const label = await labelIn(acme, { name: 'frontend' });
    const other = await labelIn(acme, { name: 'Backend' });
    expect(
      (await labels(acme).update(acme.owner.accessToken, label.id, { name: 'Frontend' })).body.name,
    ).toBe('Frontend');
    expectProblem(
      await labels(acme).update(acme.owner.accessToken, label.id, { name: 'BACKEND' }),
      409,
      'label_exists',
    );
    expect(await storedLabel(acme, label.id)).toMatchObject({ name: 'Frontend', version: 2 });
    expect(await storedLabel(acme, other.id)).toMatchObject({ name: 'Backend', version: 1 });
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403 forbidden', async (role) => {
    const label = await labelIn(acme);
    const problem = expectProblem(
      await labels(acme).update(acme[role].accessToken, label.id, { color: '#ffffff' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe(
      `Your role in this workspace (${role}) does not allow you to rename or recolor labels.`,
    );
    expect(await storedLabel(acme, label.id)).toMatchObject({ color: '#00ff00', version: 1 });
  });

  it('answers 404 to an outsider, for an unknown id and for a non-UUID id', async () => {
    const label = await labelIn(acme);
    expectProblem(
      await labels(acme).update(acme.outsider.accessToken, label.id, { color: '#ffffff' }),
      404,
      'not_found',
    );
    expectProblem(
      await labels(acme).update(acme.admin.accessToken, randomUUID(), { color: '#ffffff' }),
      404,
      'not_found',
    );
    expectProblem(
      await labels(acme).update(acme.admin.accessToken, 'nope', { color: '#ffffff' }),
      404,
      'not_found',
    );
    expect(await storedLabel(acme, label.id)).toMatchObject({ color: '#00ff00', version: 1 });
  });

  it.each([{ name: null }, { color: null }, { color: 'blue' }, { name: '' }, { workspace_id: randomUUID() }])(
    'refuses %j with 422 and changes nothing',
    async (body) => {
      const label = await labelIn(acme);
      expectProblem(
        await labels(acme).raw.update(acme.admin.accessToken, label.id, body),
        422,
        'validation_failed',
      );
      expect(await storedLabel(acme, label.id)).toMatchObject({
        name: label.name,
        color: '#00ff00',
        version: 1,
      });
    },
  );

  it('answers {} with the label unchanged', async () => {
    const label = await labelIn(acme);
    expect((await labels(acme).update(acme.admin.accessToken, label.id, {})).body).toEqual(label);
    expect(await storedLabel(acme, label.id)).toMatchObject({ version: 1 });
  });

  it('applies a change against the current If-Match and refuses a stale one with 412', async () => {
    const label = await labelIn(acme);
    const stale = await labels(acme).update(
      acme.admin.accessToken,
      label.id,
      { color: '#ffffff' },
      { 'If-Match': '"3"' },
    );
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedLabel(acme, label.id)).toMatchObject({ color: '#00ff00', version: 1 });
    const fresh = await labels(acme).update(
      acme.admin.accessToken,
      label.id,
      { color: '#ffffff' },
      { 'If-Match': '"1"' },
    );
    expect(fresh.body).toMatchObject({ color: '#ffffff', version: 2 });
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const label = await labelIn(acme);
    const readToken = await createApiTokenFor(api.app, acme.admin, 'read');
    expectProblem(
      await labels(acme).update(readToken, label.id, { color: '#ffffff' }),
      403,
      'insufficient_scope',
    );
    expect(await storedLabel(acme, label.id)).toMatchObject({ color: '#00ff00', version: 1 });
  });
});

describe('DELETE /api/v1/workspaces/{slug}/labels/{id}', () => {
  it('lets an admin delete a label: 204, gone, and 404 the second time', async () => {
    const label = await labelIn(acme);
    const response = await labels(acme).remove(acme.admin.accessToken, label.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await storedLabel(acme, label.id)).toBeUndefined();
    expectProblem(await labels(acme).remove(acme.admin.accessToken, label.id), 404, 'not_found');
  });

  it.each(['member', 'viewer'] as const)(
    'refuses a %s with 403 forbidden, even for a label they made',
    async (role) => {
      const label = await labelIn(acme);
      expectProblem(await labels(acme).remove(acme[role].accessToken, label.id), 403, 'forbidden');
      expect(await storedLabel(acme, label.id)).toBeDefined();
    },
  );

  it('answers 404 to an outsider and through another workspace', async () => {
    const label = await labelIn(acme);
    expectProblem(await labels(acme).remove(acme.outsider.accessToken, label.id), 404, 'not_found');
    expectProblem(await labels(globex).remove(globex.owner.accessToken, label.id), 404, 'not_found');
    expect(await storedLabel(acme, label.id)).toBeDefined();
  });

  it('refuses a stale If-Match with 412 and deletes with the current one', async () => {
    const label = await labelIn(acme);
    const stale = await labels(acme).remove(acme.admin.accessToken, label.id, { 'If-Match': '"2"' });
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedLabel(acme, label.id)).toBeDefined();
    expect((await labels(acme).remove(acme.admin.accessToken, label.id, { 'If-Match': '"1"' })).status).toBe(
      204,
    );
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const label = await labelIn(acme);
    const readToken = await createApiTokenFor(api.app, acme.admin, 'read');
    expectProblem(await labels(acme).remove(readToken, label.id), 403, 'insufficient_scope');
    expect(await storedLabel(acme, label.id)).toBeDefined();
  });

  it('answers aal1 403 mfa_required in a workspace that requires MFA', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const created = (
      await labels(strict).create(await aal2AccessTokenOf(strict.member), { name: 'x', color: '#000000' })
    ).body;
    expectProblem(await labels(strict).remove(strict.admin.accessToken, created.id), 403, 'mfa_required');
    expect(await storedLabel(strict, created.id)).toBeDefined();
  });
});
