import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { EXPORTS_PER_WORKSPACE_PER_HOUR } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import {
  apiClient,
  bearer as withAuthorization,
  responseOf,
  type TypedResponse,
} from '../support/api-client.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { labelCalls, projectCalls, type CreateProject } from '../support/resource-calls.ts';
import { withBearer } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type Project = components['schemas']['Project'];
type Label = components['schemas']['Label'];
type Member = components['schemas']['Member'];
type EventMember = components['schemas']['EventMember'];

const TASKS = 2_000;

const api = useTestApp();

const exportPath = (workspace: WorkspaceFixture) => `${workspace.path}/export`;
const exportAs = (bearer: string, workspace: WorkspaceFixture) =>
  responseOf(
    apiClient(api.app).GET('/v1/workspaces/{slug}/export', {
      params: { path: { slug: workspace.slug } },
      headers: withAuthorization(bearer),
    }),
  );
/** HEAD is not an operation of its own in the spec (it answers as GET does), so it takes the raw path. */
const exportHeadAs = (bearer: string, workspace: WorkspaceFixture) =>
  callApi(api.app, exportPath(workspace), withBearer(bearer, { method: 'HEAD' }));

async function createdOk<Body>(pending: Promise<TypedResponse<Body>>): Promise<Body> {
  const response = await pending;
  expect(response.status, response.text).toBe(201);
  return response.body;
}
const labelAs = (bearer: string, workspace: WorkspaceFixture, body: components['schemas']['CreateLabel']) =>
  createdOk(labelCalls(api.app, workspace).create(bearer, body));
const projectAs = (bearer: string, workspace: WorkspaceFixture, body: CreateProject) =>
  createdOk(projectCalls(api.app, workspace).create(bearer, body));

async function getAs(bearer: string, path: string): Promise<unknown> {
  const response = await callApi(api.app, path, withBearer(bearer));
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** `count` tasks in the project, inserted as the service: in every status, some labelled and assigned. */
async function insertTasks(project: Project, count: number, labelId: string, assigneeId: string) {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.tasks (project_id, title, description, status, priority, position, label_ids,
         assignee_id, due_date, created_by)
       select $1, 'Task ' || n, case when n % 7 = 0 then 'Line one\n"quoted" \\ and ünïcode 🚀' else '' end,
         (array['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'])[1 + n % 6], (enum_range(null::public.task_priority))[1 + n % 5],
         'a' || lpad(n::text, 6, '0'), case when n % 3 = 0 then array[$2::uuid] else '{}' end,
         case when n % 2 = 0 then $3::uuid end, case when n % 4 = 0 then date '2026-12-01' + n end, $3
       from generate_series(1, $4) n`,
      [project.id, labelId, assigneeId, count],
    ),
  );
}

async function insertComment(taskId: string, authorId: string, body: string): Promise<string> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ id: string }>(
      'insert into public.comments (task_id, author_id, body) values ($1, $2, $3) returning id',
      [taskId, authorId, body],
    ),
  );
  if (!row) throw new Error('insert into comments returned no row');
  return row.id;
}

async function storedTaskIds(workspace: WorkspaceFixture): Promise<string[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ id: string }>('select id from public.tasks where workspace_id = $1 order by id', [
      workspace.id,
    ]),
  );
  return rows.map(({ id }) => id);
}

/** Reads a body as it arrives, chunk by chunk; `onChunk` may act between reads. */
async function readChunks(
  body: ReadableStream<Uint8Array>,
  onChunk: (index: number) => Promise<void>,
): Promise<{ text: string; failed: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let index = 0; ; index += 1) {
    const read = await reader.read().catch(() => undefined);
    if (!read) return { text, failed: true };
    if (read.done) return { text, failed: false };
    text += decoder.decode(read.value, { stream: true });
    await onChunk(index);
  }
}

/** The backends of this test's database that hold an export's cursor open. */
async function exportBackends(): Promise<number[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and state like 'idle in transaction%' and (query like 'fetch forward%' or query like 'declare%')`,
    ),
  );
  return rows.map(({ pid }) => pid);
}

describe('GET /v1/workspaces/{slug}/export', () => {
  let workspace: WorkspaceFixture;
  let projects: Project[];
  let labels: Label[];
  let commentIds: string[];
  let elsewhereTaskIds: string[];

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
    const owner = workspace.owner.accessToken;
    labels = [
      await labelAs(owner, workspace, { name: 'feature', color: '#00aa00' }),
      await labelAs(owner, workspace, { name: 'Bug', color: '#d73a4a' }),
    ];
    projects = [
      await projectAs(owner, workspace, { key: 'WEB', name: 'Website' }),
      await projectAs(owner, workspace, { key: 'OLD', name: 'Old things' }),
    ];
    const [web, old] = projects;
    const [feature, bug] = labels;
    if (!web || !old || !feature || !bug) throw new Error('setup failed');
    await insertTasks(web, TASKS, bug.id, workspace.member.id);
    await insertTasks(old, 3, feature.id, workspace.admin.id);
    const [first, second] = await storedTaskIds(workspace);
    if (!first || !second) throw new Error('no tasks');
    commentIds = [
      await insertComment(first, workspace.member.id, 'First!'),
      await insertComment(first, workspace.admin.id, 'Looks good to **me**.'),
      await insertComment(second, workspace.member.id, 'Soon gone'),
    ];
    // A deleted comment keeps its place, without its body; an archived project is exported too.
    await asService(api.db, (sql) =>
      sql.query('update public.comments set body = null, deleted_at = now() where id = $1', [commentIds[2]]),
    );
    const archived = await projectCalls(api.app, workspace).update(owner, 'OLD', { archived: true });
    expect(archived.status, archived.text).toBe(200);
    projects[1] = archived.body;

    // Another workspace of the same owner, whose tasks must stay out of this one's export.
    const elsewhere = await createWorkspaceWithRoles(api.db);
    const other = await projectAs(elsewhere.owner.accessToken, elsewhere, {
      key: 'ELSE',
      name: 'Elsewhere',
    });
    const otherLabel = await labelAs(elsewhere.owner.accessToken, elsewhere, {
      name: 'other',
      color: '#123456',
    });
    await insertTasks(other, 5, otherLabel.id, elsewhere.member.id);
    elsewhereTaskIds = await storedTaskIds(elsewhere);
  });

  it(`streams a workspace of ${TASKS} tasks completely, as one document that parses`, async () => {
    const response = await exportAs(workspace.owner.accessToken, workspace);

    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${workspace.slug}-export.json"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const document = response.body;
    expect(document).toMatchObject({ object: 'export', format_version: 1 });
    expect(Date.now() - Date.parse(document.exported_at)).toBeLessThan(60_000);
    expect(document.tasks).toHaveLength(TASKS + 3);
    expect(document.tasks.map(({ id }) => id).sort()).toEqual(await storedTaskIds(workspace));
    expect(document.tasks.filter(({ id }) => elsewhereTaskIds.includes(id))).toEqual([]);
    expect(new Set(document.tasks.map(({ status }) => status)).size).toBe(6);
    expect(document.tasks.find(({ description }) => description.includes('🚀'))?.description).toBe(
      'Line one\n"quoted" \\ and ünïcode 🚀',
    );
  });

  it('holds every item exactly as the API answers it, in the documented order', async () => {
    const owner = workspace.owner.accessToken;
    const document = (await exportAs(owner, workspace)).body;

    expect(document.workspace).toEqual(await getAs(owner, workspace.path));
    expect(document.projects).toEqual(projects);
    expect(document.labels).toEqual([labels[1], labels[0]]); // Bug before feature: case ignored
    expect(document.comments.map(({ id }) => id).sort()).toEqual([...commentIds].sort());
    for (const comment of document.comments) {
      expect(comment).toEqual(await getAs(owner, `/api/v1/comments/${comment.id}`));
    }
    expect(document.comments.find(({ id }) => id === commentIds[2])).toMatchObject({
      body: null,
      deleted: true,
    });
    const [someTask] = document.tasks;
    expect(someTask).toEqual(await getAs(owner, `/api/v1/tasks/${someTask?.id}`));

    // Tasks project by project, each project's in board order: by status, then position.
    const boardKeys = document.tasks.map(
      (task) => `${task.project_id} ${'0123456'.charAt(statusIndex(task.status))} ${task.position}`,
    );
    expect(boardKeys).toEqual([...boardKeys].sort());
  });

  it('lists the members as the members list does, by name and role, never by e-mail address', async () => {
    const document = (await exportAs(workspace.admin.accessToken, workspace)).body;
    const members = await memberCalls(api.app, workspace).list(workspace.admin.accessToken);
    expect(members.status, members.text).toBe(200);
    const listed = members.body;

    const publicProfile = ({ user_id, workspace_id, role, display_name, version }: Member | EventMember) => ({
      user_id,
      workspace_id,
      role,
      display_name,
      version,
    });
    expect(document.members.map(publicProfile)).toEqual(listed.data.map(publicProfile));
    expect(document.members.map(({ role }) => role).sort()).toEqual(['admin', 'member', 'owner', 'viewer']);
    expect(JSON.stringify(document.members)).not.toContain('@example.com');
  });

  it('lets owners, admins and their API tokens export; members and viewers 403, outsiders 404', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expect((await exportAs(fixture.owner.accessToken, fixture)).status).toBe(200);
    expect((await exportAs(fixture.admin.accessToken, fixture)).status).toBe(200);
    const readToken = await createApiTokenFor(api.app, fixture.admin, 'read');
    expect((await exportAs(readToken, fixture)).status).toBe(200);
    expectProblem(await exportAs(fixture.member.accessToken, fixture), 403, 'forbidden');
    expectProblem(await exportAs(fixture.viewer.accessToken, fixture), 403, 'forbidden');
    expectProblem(await exportAs(fixture.outsider.accessToken, fixture), 404, 'not_found');
  });

  it(`allows ${EXPORTS_PER_WORKSPACE_PER_HOUR} exports per workspace an hour; refusals and HEAD do not count`, async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expectProblem(await exportAs(fixture.member.accessToken, fixture), 403, 'forbidden');
    }
    const head = await exportHeadAs(fixture.owner.accessToken, fixture);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-disposition')).toBe(
      `attachment; filename="${fixture.slug}-export.json"`,
    );

    const admins = [fixture.owner.accessToken, fixture.admin.accessToken];
    for (let n = 0; n < EXPORTS_PER_WORKSPACE_PER_HOUR; n += 1) {
      expect((await exportAs(admins[n % 2] ?? '', fixture)).status).toBe(200);
    }
    const refused = await exportAs(fixture.admin.accessToken, fixture);
    const problem = expectProblem(refused, 429, 'rate_limited');
    expect(problem.detail).toMatch(/exported 10 times this hour.*exports_per_workspace_per_hour/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // The budget is the workspace's: the same people may still export another workspace.
    expect((await exportAs(workspace.admin.accessToken, workspace)).status).toBe(200);
  });

  it('takes no query parameters', async () => {
    const response = await callApi(
      api.app,
      `${exportPath(workspace)}?format=csv`,
      withBearer(workspace.owner.accessToken),
    );
    expectProblem(response, 400, 'bad_request');
  });

  it('cuts the document short, and logs why, when the database fails after the stream began', async () => {
    const response = await api.app.request(
      exportPath(workspace),
      withBearer(workspace.owner.accessToken, { headers: { 'X-Request-Id': 'export-cut-short' } }),
    );
    expect(response.status).toBe(200);
    if (!response.body) throw new Error('no body');

    const { text, failed } = await readChunks(response.body, async (index) => {
      if (index !== 1) return;
      // The export soon waits for us to read on, its transaction open: then its connection drops. The
      // backend the poll found: asked again, it may be fetching the next batch, no longer idle.
      const [backend] = await vi.waitFor(async () => {
        const backends = await exportBackends();
        expect(backends).toHaveLength(1);
        return backends;
      });
      await asService(api.db, (sql) => sql.query('select pg_terminate_backend($1)', [backend]));
    });

    expect(failed).toBe(true);
    expect(text.length).toBeGreaterThan(1_000);
    expect(() => JSON.parse(text) as unknown).toThrow();
    await expect
      .poll(() => api.logs.forRequest('export-cut-short').map(({ msg }) => msg))
      .toContain('export failed after it began: the document was cut short');
  });

  it('ends the export and frees its connection when the client stops reading', async () => {
    const response = await api.app.request(
      exportPath(workspace),
      withBearer(workspace.owner.accessToken, { headers: { 'X-Request-Id': 'export-abandoned' } }),
    );
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    await reader.read();
    await expect.poll(exportBackends).toHaveLength(1);

    await reader.cancel('the client went away');

    await expect.poll(exportBackends).toEqual([]);
    await expect
      .poll(() => api.logs.forRequest('export-abandoned').map(({ msg }) => msg))
      .toContain('export stopped: the client stopped reading');
  });
});

function statusIndex(status: string): number {
  return ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'].indexOf(status);
}
