import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { PROJECTS_PER_WORKSPACE } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { ISO_TIMESTAMP, jsonRequest, projectCalls, type CreateProject } from '../support/resource-calls.ts';
import { aal2AccessTokenOf, withBearer } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
  useTwoWorkspaces,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type Project = components['schemas']['Project'];

const api = useTestApp();
const projectsOf = (workspace: WorkspaceFixture) => `${workspace.path}/projects`;
const projects = (workspace: WorkspaceFixture) => projectCalls(api.app, workspace);

const uniqueKey = () => `P${randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase()}`;

interface StoredProject extends Record<string, unknown> {
  key: string;
  name: string;
  description: string;
  archived_at: Date | null;
  created_by: string | null;
  version: number;
}

/** The workspace's projects as the database holds them, oldest first. */
async function storedProjects(workspace: WorkspaceFixture): Promise<StoredProject[]> {
  return asService(api.db, (sql) =>
    sql.query<StoredProject>(
      `select key, name, description, archived_at, created_by, version from public.projects
       where workspace_id = $1 order by created_at, id`,
      [workspace.id],
    ),
  );
}

async function storedProject(workspace: WorkspaceFixture, key: string): Promise<StoredProject | undefined> {
  return (await storedProjects(workspace)).find((project) => project.key === key);
}

/** Projects made as the service, as if admins had created them earlier. */
async function insertProjects(workspace: WorkspaceFixture, count: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.projects (workspace_id, key, name, created_by)
       select $1, 'F' || upper(substr(md5(random()::text), 1, 8)), 'Filler', $2 from generate_series(1, $3)`,
      [workspace.id, workspace.admin.id, count],
    ),
  );
}

/** A project the admin creates through the API. */
async function projectIn(workspace: WorkspaceFixture, fields: Partial<CreateProject> = {}): Promise<Project> {
  const response = await projects(workspace).create(workspace.admin.accessToken, {
    key: uniqueKey(),
    name: 'Project',
    ...fields,
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function archivedProjectIn(workspace: WorkspaceFixture): Promise<Project> {
  const project = await projectIn(workspace);
  const response = await projects(workspace).update(workspace.admin.accessToken, project.key, {
    archived: true,
  });
  expect(response.status).toBe(200);
  return response.body;
}

const { acme, globex } = useTwoWorkspaces(api);

describe('POST /api/v1/workspaces/{slug}/projects', () => {
  it('lets an admin create a project, answered with its address and ETag', async () => {
    const key = uniqueKey();
    const response = await projects(acme).create(acme.admin.accessToken, { key, name: '  Engineering  ' });
    expect(response.status).toBe(201);
    const project = response.body;
    expect(project).toEqual({
      object: 'project',
      id: expect.any(String),
      workspace_id: acme.id,
      key,
      name: 'Engineering',
      description: '',
      archived: false,
      archived_at: null,
      created_by: acme.admin.id,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: project.created_at,
    });
    expect(response.headers.get('Location')).toBe(`projects/${key}`);
    expect(response.headers.get('ETag')).toBe('"1"');
    expect(await storedProject(acme, key)).toEqual({
      key,
      name: 'Engineering',
      description: '',
      archived_at: null,
      created_by: acme.admin.id,
      version: 1,
    });
    const location = new URL(response.headers.get('Location') ?? '', `http://api.test${projectsOf(acme)}`);
    expect((await projects(acme).get(acme.viewer.accessToken, key)).body.id).toBe(project.id);
    expect(location.pathname).toBe(`${projectsOf(acme)}/${key}`);
  });

  it('lets an owner create one with a description', async () => {
    const project = await projectIn(acme, { description: '# Plans\nShip it.' });
    expect(project.description).toBe('# Plans\nShip it.');
  });

  it.each(['member', 'viewer'] as const)(
    'refuses a %s with 403 forbidden and creates nothing',
    async (role) => {
      const key = uniqueKey();
      const problem = expectProblem(
        await projects(acme).create(acme[role].accessToken, { key, name: 'Nope' }),
        403,
        'forbidden',
      );
      expect(problem.detail).toBe(
        `Your role in this workspace (${role}) does not allow you to create projects.`,
      );
      expect(await storedProject(acme, key)).toBeUndefined();
    },
  );

  it('answers 404 to an outsider and for a workspace that does not exist', async () => {
    const key = uniqueKey();
    expectProblem(
      await projects(acme).create(acme.outsider.accessToken, { key, name: 'Nope' }),
      404,
      'not_found',
    );
    const missing = { ...acme, slug: 'no-such-workspace', path: '/api/v1/workspaces/no-such-workspace' };
    expectProblem(
      await projects(missing).create(acme.admin.accessToken, { key, name: 'Nope' }),
      404,
      'not_found',
    );
    expect(await storedProject(acme, key)).toBeUndefined();
  });

  it('answers another workspace admin 404, never 403', async () => {
    const key = uniqueKey();
    expectProblem(
      await projects(acme).create(globex.admin.accessToken, { key, name: 'Nope' }),
      404,
      'not_found',
    );
    expect(await storedProject(acme, key)).toBeUndefined();
  });

  it.each([
    [{ key: 'eng', name: 'Engineering' }, 'body.key'],
    [{ key: 'E', name: 'Engineering' }, 'body.key'],
    [{ key: 'ENGINEERING1', name: 'Engineering' }, 'body.key'],
    [{ key: '1ENG', name: 'Engineering' }, 'body.key'],
    [{ key: 'EN-G', name: 'Engineering' }, 'body.key'],
    [{ key: 'ENG', name: '   ' }, 'body.name'],
    [{ key: 'ENG', name: 'x'.repeat(81) }, 'body.name'],
    [{ key: 'ENG', name: 'Engineering', description: 'x'.repeat(20_001) }, 'body.description'],
    [{ key: 'ENG', name: 'Engineering', description: null }, 'body.description'],
    [{ key: 'ENG', name: 'Engineering', archived: true }, 'body.archived'],
    [{ name: 'Engineering' }, 'body.key'],
  ])('refuses %j with 422 naming %s', async (body, path) => {
    const before = await storedProjects(acme);
    const problem = expectProblem(
      await projects(acme).raw.create(acme.admin.accessToken, body),
      422,
      'validation_failed',
    );
    expect(new Set(problem.errors?.map((error) => error.path))).toEqual(new Set([path]));
    expect(await storedProjects(acme)).toEqual(before);
  });

  it('refuses a key the workspace already uses with 409 project_key_taken; other workspaces may use it', async () => {
    const { key } = await projectIn(acme);
    const problem = expectProblem(
      await projects(acme).create(acme.owner.accessToken, { key, name: 'Twin' }),
      409,
      'project_key_taken',
    );
    expect(problem.detail).toBe(`Another project in this workspace already uses the key "${key}".`);
    expect(problem.errors).toEqual([
      { path: 'body.key', code: 'project_key_taken', message: 'is already taken' },
    ]);
    expect((await storedProjects(acme)).filter((project) => project.key === key)).toHaveLength(1);
    expect((await projects(globex).create(globex.admin.accessToken, { key, name: 'Twin' })).status).toBe(201);
  });

  it(`refuses the project past ${PROJECTS_PER_WORKSPACE}, archived ones included, with 409 limit_reached`, async () => {
    const full = await createWorkspaceWithRoles(api.db);
    await insertProjects(full, PROJECTS_PER_WORKSPACE - 1);
    await archivedProjectIn(full);
    const problem = expectProblem(
      await projects(full).create(full.admin.accessToken, { key: uniqueKey(), name: 'One too many' }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toContain('(projects_per_workspace)');
    expect(await storedProjects(full)).toHaveLength(PROJECTS_PER_WORKSPACE);
  });

  it('lets exactly one of two concurrent creations take the last place', async () => {
    const nearlyFull = await createWorkspaceWithRoles(api.db);
    await insertProjects(nearlyFull, PROJECTS_PER_WORKSPACE - 1);
    const responses = await Promise.all(
      [nearlyFull.admin, nearlyFull.owner].map((user) =>
        projects(nearlyFull).create(user.accessToken, { key: uniqueKey(), name: 'Last' }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const refused = responses.find((response) => response.status === 409);
    expect(refused && expectProblem(refused, 409, 'limit_reached').code).toBe('limit_reached');
    expect(await storedProjects(nearlyFull)).toHaveLength(PROJECTS_PER_WORKSPACE);
  });

  it('answers aal1 sessions 403 mfa_required in a workspace that requires MFA, and lets aal2 in', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const key = uniqueKey();
    expectProblem(
      await projects(strict).create(strict.admin.accessToken, { key, name: 'Nope' }),
      403,
      'mfa_required',
    );
    expect(await storedProjects(strict)).toEqual([]);
    const response = await projects(strict).create(await aal2AccessTokenOf(strict.admin), {
      key,
      name: 'Yes',
    });
    expect(response.status).toBe(201);
  });

  it('refuses a read token with 403 insufficient_scope and takes a write token', async () => {
    const key = uniqueKey();
    const readToken = await createApiTokenFor(api.app, acme.admin, 'read');
    expectProblem(await projects(acme).create(readToken, { key, name: 'Nope' }), 403, 'insufficient_scope');
    expect(await storedProject(acme, key)).toBeUndefined();
    const writeToken = await createApiTokenFor(api.app, acme.admin, 'write');
    expect((await projects(acme).create(writeToken, { key, name: 'Scripted' })).status).toBe(201);
  });

  it('replays a retry with the same Idempotency-Key instead of creating twice', async () => {
    const key = uniqueKey();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await projects(acme).create(acme.admin.accessToken, { key, name: 'Once' }, headers);
    const again = await projects(acme).create(acme.admin.accessToken, { key, name: 'Once' }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await storedProjects(acme)).filter((project) => project.key === key)).toHaveLength(1);
  });

  it('takes no query parameters', async () => {
    const key = uniqueKey();
    const response = await callApi(
      api.app,
      `${projectsOf(acme)}?key=${key}`,
      withBearer(acme.admin.accessToken, jsonRequest('POST', { key, name: 'Nope' })),
    );
    expectProblem(response, 400, 'bad_request');
    expect(await storedProject(acme, key)).toBeUndefined();
  });
});

describe('GET /api/v1/workspaces/{slug}/projects', () => {
  let listed: WorkspaceFixture;
  let active: Project[];
  let archived: Project;
  beforeAll(async () => {
    listed = await createWorkspaceWithRoles(api.db);
    active = [];
    for (const name of ['One', 'Two', 'Three']) active.push(await projectIn(listed, { name }));
    archived = await archivedProjectIn(listed);
    active.push(await projectIn(listed, { name: 'Five' }));
  });

  it('lists the active projects, oldest first, to any member', async () => {
    for (const user of [listed.owner, listed.admin, listed.member, listed.viewer]) {
      const response = await projects(listed).list(user.accessToken);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ object: 'list', data: active, next_cursor: null });
      expect(response.headers.get('Link')).toBeNull();
    }
  });

  it('lists archived ones too with ?include_archived=true, and not with false', async () => {
    const all = (await projects(listed).list(listed.viewer.accessToken, '?include_archived=true')).body;
    expect(all.data.map((project) => project.key)).toEqual(
      [...active.slice(0, 3), archived, active[3]].map((project) => project?.key),
    );
    expect(all.data.find((project) => project.key === archived.key)).toMatchObject({
      archived: true,
      archived_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const some = (await projects(listed).list(listed.viewer.accessToken, '?include_archived=false')).body;
    expect(some.data).toEqual(active);
  });

  it.each(['yes', 'TRUE', '1', ''])('refuses ?include_archived=%s with 400', async (value) => {
    const problem = expectProblem(
      await projects(listed).list(listed.member.accessToken, `?include_archived=${value}`),
      400,
      'bad_request',
    );
    expect(problem.errors?.[0]?.path).toBe('query.include_archived');
  });

  it('walks every project once, two at a time, following next_cursor and Link', async () => {
    const seen: string[] = [];
    let query = '?include_archived=true&limit=2';
    for (let pages = 0; pages < 10; pages += 1) {
      const response = await projects(listed).list(listed.member.accessToken, query);
      const page = response.body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((project) => project.key));
      if (!page.next_cursor) break;
      const link = response.headers.get('Link');
      expect(link).toBe(`<?include_archived=true&limit=2&cursor=${page.next_cursor}>; rel="next"`);
      query = link?.slice(1, link.indexOf('>')) ?? '';
    }
    expect(seen).toEqual([...active.slice(0, 3), archived, active[3]].map((project) => project?.key));
  });

  it('refuses a cursor it did not issue with 400', async () => {
    expectProblem(
      await projects(listed).list(listed.member.accessToken, '?cursor=bm9wZQ'),
      400,
      'bad_request',
    );
  });

  it('answers 404 to an outsider and 403 mfa_required to aal1 in a workspace that requires MFA', async () => {
    expectProblem(await projects(listed).list(listed.outsider.accessToken), 404, 'not_found');
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    expectProblem(await projects(strict).list(strict.viewer.accessToken), 403, 'mfa_required');
    expect((await projects(strict).list(await aal2AccessTokenOf(strict.viewer))).status).toBe(200);
  });

  it('lets a read token list', async () => {
    const readToken = await createApiTokenFor(api.app, listed.viewer, 'read');
    expect((await projects(listed).list(readToken)).body.data).toEqual(active);
  });
});

describe('GET /api/v1/workspaces/{slug}/projects/{key}', () => {
  it('answers any member the project with its ETag, and 304 while it is unchanged', async () => {
    const project = await projectIn(acme);
    const response = await projects(acme).get(acme.viewer.accessToken, project.key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(project);
    expect(response.headers.get('ETag')).toBe('"1"');
    const notModified = await projects(acme).get(acme.viewer.accessToken, project.key, {
      'If-None-Match': '"1"',
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    const changed = await projects(acme).get(acme.viewer.accessToken, project.key, {
      'If-None-Match': '"7"',
    });
    expect(changed.status).toBe(200);
  });

  it('answers an archived project too', async () => {
    const project = await archivedProjectIn(acme);
    const response = await projects(acme).get(acme.member.accessToken, project.key);
    expect(response.body).toMatchObject({ key: project.key, archived: true });
  });

  it('answers 404 for a lower-case key, an unknown key, a malformed key and another workspace', async () => {
    const project = await projectIn(acme);
    for (const key of [project.key.toLowerCase(), 'NOPE', 'NOT-A-KEY', 'X'.repeat(11), '%20']) {
      expectProblem(await projects(acme).get(acme.admin.accessToken, key), 404, 'not_found');
    }
    expectProblem(await projects(acme).get(acme.outsider.accessToken, project.key), 404, 'not_found');
    expectProblem(await projects(globex).get(globex.admin.accessToken, project.key), 404, 'not_found');
  });

  it('refuses a query parameter with 400', async () => {
    const project = await projectIn(acme);
    expectProblem(
      await projects(acme).raw.get(acme.admin.accessToken, `${project.key}?x=1`),
      400,
      'bad_request',
    );
  });
});

describe('PATCH /api/v1/workspaces/{slug}/projects/{key}', () => {
  it('lets an admin rename and describe a project, bumping its version', async () => {
    const project = await projectIn(acme);
    const response = await projects(acme).update(acme.admin.accessToken, project.key, {
      name: ' Platform ',
      description: 'Shared services.',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...project,
      name: 'Platform',
      description: 'Shared services.',
      version: 2,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(response.headers.get('ETag')).toBe('"2"');
    expect(response.headers.get('Content-Location')).toBe(project.key);
    expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Platform', version: 2 });
  });

  it('moves a project to a new key: the old address is 404, the new one answers', async () => {
    const project = await projectIn(acme);
    const key = uniqueKey();
    const response = await projects(acme).update(acme.owner.accessToken, project.key, { key });
    expect(response.body).toMatchObject({ id: project.id, key, version: 2 });
    expect(response.headers.get('Content-Location')).toBe(key);
    expectProblem(await projects(acme).get(acme.admin.accessToken, project.key), 404, 'not_found');
    expect((await projects(acme).get(acme.admin.accessToken, key)).body.id).toBe(project.id);
  });

  it('answers a retried change of key with the same Idempotency-Key again, though the old address is gone', async () => {
    const project = await projectIn(acme);
    const key = uniqueKey();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await projects(acme).update(acme.admin.accessToken, project.key, { key }, headers);
    const again = await projects(acme).update(acme.admin.accessToken, project.key, { key }, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await storedProject(acme, key)).toMatchObject({ version: 2 });
  });

  it('refuses a key another project has with 409 project_key_taken', async () => {
    const [first, second] = [await projectIn(acme), await projectIn(acme)];
    if (!first || !second) throw new Error('no projects');
    expectProblem(
      await projects(acme).update(acme.admin.accessToken, second.key, { key: first.key }),
      409,
      'project_key_taken',
    );
    expect(await storedProject(acme, second.key)).toMatchObject({ version: 1 });
  });

  it('clears the description with "" and refuses null with 422', async () => {
    const project = await projectIn(acme, { description: 'Something' });
    expectProblem(
      await projects(acme).raw.update(acme.admin.accessToken, project.key, { description: null }),
      422,
      'validation_failed',
    );
    expect(await storedProject(acme, project.key)).toMatchObject({ description: 'Something', version: 1 });
    const cleared = await projects(acme).update(acme.admin.accessToken, project.key, { description: '' });
    expect(cleared.body.description).toBe('');
  });

  it.each([{ id: randomUUID() }, { archived_at: null }, { key: 'low' }, { name: '' }, { archived: 'yes' }])(
    'refuses %j with 422 and changes nothing',
    async (body) => {
      const project = await projectIn(acme);
      expectProblem(
        await projects(acme).raw.update(acme.admin.accessToken, project.key, body),
        422,
        'validation_failed',
      );
      expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Project', version: 1 });
    },
  );

  it('answers {} with the project unchanged', async () => {
    const project = await projectIn(acme);
    const response = await projects(acme).update(acme.admin.accessToken, project.key, {});
    expect(response.body).toEqual(project);
    expect(await storedProject(acme, project.key)).toMatchObject({ version: 1 });
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403 forbidden', async (role) => {
    const project = await projectIn(acme);
    expectProblem(
      await projects(acme).update(acme[role].accessToken, project.key, { name: 'Mine' }),
      403,
      'forbidden',
    );
    expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Project', version: 1 });
  });

  it('answers 404 to an outsider and for a project that does not exist', async () => {
    const project = await projectIn(acme);
    expectProblem(
      await projects(acme).update(acme.outsider.accessToken, project.key, { name: 'Mine' }),
      404,
      'not_found',
    );
    expectProblem(
      await projects(acme).update(acme.admin.accessToken, 'NOPE', { name: 'Mine' }),
      404,
      'not_found',
    );
    expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Project', version: 1 });
  });

  it('applies a change against the current If-Match and refuses a stale one with 412', async () => {
    const project = await projectIn(acme);
    const stale = await projects(acme).update(
      acme.admin.accessToken,
      project.key,
      { name: 'Stale' },
      { 'If-Match': '"7"' },
    );
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Project', version: 1 });
    const fresh = await projects(acme).update(
      acme.admin.accessToken,
      project.key,
      { name: 'Fresh' },
      { 'If-Match': '"1"' },
    );
    expect(fresh.body).toMatchObject({ name: 'Fresh', version: 2 });
    const empty = await projects(acme).update(acme.admin.accessToken, project.key, {}, { 'If-Match': '"1"' });
    expect(expectProblem(empty, 412, 'precondition_failed').current_version).toBe(2);
  });

  it('lets exactly one of two concurrent changes against the same version win', async () => {
    const project = await projectIn(acme);
    const responses = await Promise.all(
      ['Left', 'Right'].map((name) =>
        projects(acme).update(acme.admin.accessToken, project.key, { name }, { 'If-Match': '"1"' }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
    expect(await storedProject(acme, project.key)).toMatchObject({ version: 2 });
  });

  it('archives a project: read-only, hidden from lists, and back with {"archived": false}', async () => {
    const project = await projectIn(acme);
    const archived = (await projects(acme).update(acme.admin.accessToken, project.key, { archived: true }))
      .body;
    expect(archived).toMatchObject({
      archived: true,
      archived_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 2,
    });
    const stored = await storedProject(acme, project.key);
    expect(stored?.archived_at?.toISOString()).toBe(archived.archived_at);
    const listed = (await projects(acme).list(acme.admin.accessToken, '?limit=200')).body;
    expect(listed.data.map((each) => each.key)).not.toContain(project.key);

    for (const body of [{ name: 'Renamed' }, { archived: false, name: 'Renamed' }, { archived: true }, {}]) {
      const problem = expectProblem(
        await projects(acme).update(acme.admin.accessToken, project.key, body),
        409,
        'project_archived',
      );
      expect(problem.detail).toBe(`The project "${project.key}" is archived: unarchive it to change it.`);
    }
    expect(await storedProject(acme, project.key)).toEqual(stored);

    const unarchived = await projects(acme).update(acme.admin.accessToken, project.key, { archived: false });
    expect(unarchived.body).toMatchObject({
      archived: false,
      archived_at: null,
      name: 'Project',
      version: 3,
    });
    expect(await storedProject(acme, project.key)).toMatchObject({ archived_at: null, version: 3 });
    const renamed = await projects(acme).update(acme.admin.accessToken, project.key, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', version: 4 });
  });

  it('answers 412 before 409 project_archived when If-Match is stale', async () => {
    const project = await archivedProjectIn(acme);
    const response = await projects(acme).update(
      acme.admin.accessToken,
      project.key,
      { archived: false },
      { 'If-Match': '"1"' },
    );
    expect(expectProblem(response, 412, 'precondition_failed').current_version).toBe(2);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const project = await projectIn(acme);
    const readToken = await createApiTokenFor(api.app, acme.admin, 'read');
    expectProblem(
      await projects(acme).update(readToken, project.key, { name: 'Nope' }),
      403,
      'insufficient_scope',
    );
    expect(await storedProject(acme, project.key)).toMatchObject({ name: 'Project', version: 1 });
  });

  it('answers aal1 403 mfa_required in a workspace that requires MFA', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const adminAal2 = await aal2AccessTokenOf(strict.admin);
    const created = (await projects(strict).create(adminAal2, { key: uniqueKey(), name: 'Strict' })).body;
    expectProblem(
      await projects(strict).update(strict.admin.accessToken, created.key, { name: 'No' }),
      403,
      'mfa_required',
    );
    expect(await storedProject(strict, created.key)).toMatchObject({ name: 'Strict', version: 1 });
  });
});

describe('DELETE /api/v1/workspaces/{slug}/projects/{key}', () => {
  it('lets an admin delete a project: 204, gone, and 404 the second time', async () => {
    const project = await projectIn(acme);
    const response = await projects(acme).remove(acme.admin.accessToken, project.key);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await storedProject(acme, project.key)).toBeUndefined();
    expectProblem(await projects(acme).remove(acme.admin.accessToken, project.key), 404, 'not_found');
  });

  it('deletes an archived project too', async () => {
    const project = await archivedProjectIn(acme);
    expect((await projects(acme).remove(acme.owner.accessToken, project.key)).status).toBe(204);
    expect(await storedProject(acme, project.key)).toBeUndefined();
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403 forbidden', async (role) => {
    const project = await projectIn(acme);
    expectProblem(await projects(acme).remove(acme[role].accessToken, project.key), 403, 'forbidden');
    expect(await storedProject(acme, project.key)).toBeDefined();
  });

  it('answers 404 to an outsider and to a lower-case key', async () => {
    const project = await projectIn(acme);
    expectProblem(await projects(acme).remove(acme.outsider.accessToken, project.key), 404, 'not_found');
    expectProblem(
      await projects(acme).remove(acme.admin.accessToken, project.key.toLowerCase()),
      404,
      'not_found',
    );
    expect(await storedProject(acme, project.key)).toBeDefined();
  });

  it('refuses a stale If-Match with 412 and deletes with the current one', async () => {
    const project = await projectIn(acme);
    const stale = await projects(acme).remove(acme.admin.accessToken, project.key, { 'If-Match': '"2"' });
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedProject(acme, project.key)).toBeDefined();
    expect(
      (await projects(acme).remove(acme.admin.accessToken, project.key, { 'If-Match': '"1"' })).status,
    ).toBe(204);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const project = await projectIn(acme);
    const readToken = await createApiTokenFor(api.app, acme.admin, 'read');
    expectProblem(await projects(acme).remove(readToken, project.key), 403, 'insufficient_scope');
    expect(await storedProject(acme, project.key)).toBeDefined();
  });
});
