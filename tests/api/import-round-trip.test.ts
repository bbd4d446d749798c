/**
 * Export → import → export: a workspace's export imported into an empty workspace of the same people
 * gives the same projects, labels, tasks (title, description, status, order, priority, labels, due date,
 * assignee) and comments. The ids and numbers are new; everything a person sees is the same.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { apiClient, bearer, responseOf } from '../support/api-client.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { importCalls, importIn, previewIn } from '../support/import-calls.ts';
import { labelCalls, projectCalls } from '../support/resource-calls.ts';
import { asService } from '../support/service-transaction.ts';
import { taskCalls, type CreateTask } from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

type Export = components['schemas']['Export'];

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });

let from: WorkspaceFixture;
let to: WorkspaceFixture;

/** An empty workspace with the same people in the same roles as `workspace`. */
async function emptyTwinOf(workspace: WorkspaceFixture): Promise<WorkspaceFixture> {
  const slug = `${workspace.slug}-twin`;
  const id = await asService(api.db, async (sql) => {
    const [made] = await sql.query<{ id: string }>(
      `insert into public.workspaces (slug, name, created_by) values ($1, 'Twin', $2) returning id`,
      [slug, workspace.owner.id],
    );
    await sql.query(
      `insert into public.memberships (workspace_id, user_id, role)
       select $1, m.user_id, m.role from public.memberships m where m.workspace_id = $2`,
      [made?.id, workspace.id],
    );
    return made?.id ?? '';
  });
  return { ...workspace, id, slug, path: `/api/v1/workspaces/${slug}` };
}

async function exportOf(workspace: WorkspaceFixture): Promise<Export> {
  const response = await responseOf(
    apiClient(api.app).GET('/v1/workspaces/{slug}/export', {
      params: { path: { slug: workspace.slug } },
      headers: bearer(workspace.owner.accessToken),
    }),
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function fill(workspace: WorkspaceFixture): Promise<void> {
  const owner = workspace.owner.accessToken;
  const labels = labelCalls(api.app, workspace);
  const bug = (await labels.create(owner, { name: 'Bug', color: '#d73a4a' })).body;
  const ux = (await labels.create(owner, { name: 'UX', color: '#a2eeef' })).body;
  const projects = projectCalls(api.app, workspace);
  await projects.create(owner, { key: 'ENG', name: 'Engineering', description: 'The **engine** room.' });
  await projects.create(owner, { key: 'WEB', name: 'Web platform' });
  const tasks = taskCalls(api.app);
  const made = [];
  const specs: [string, string, Omit<CreateTask, 'title'>][] = [
    ['ENG', 'Fix the login', { status: 'in_progress', priority: 'high', label_ids: [bug.id] }],
    ['ENG', 'Write the docs', { description: 'Steps:\n- [ ] one\n- [x] two', due_date: '2027-01-15' }],
    ['ENG', 'Ship it', { status: 'done', assignee_id: workspace.member.id, label_ids: [bug.id, ux.id] }],
    ['ENG', 'Second todo', {}],
    ['WEB', 'Landing page', { status: 'backlog', priority: 'urgent', assignee_id: workspace.admin.id }],
    ['WEB', '<b>Not HTML</b>', { status: 'canceled', description: '<script>alert(1)</script>' }],
  ];
  for (const [key, title, extra] of specs) {
    const response = await tasks.create(owner, workspace, key, { title, ...extra });
    expect(response.status, response.text).toBe(201);
    made.push(response.body);
  }
  const comments = commentCalls(api.app);
  await comments.create(owner, made[0]?.id ?? '', { body: 'First comment' });
  await comments.create(owner, made[0]?.id ?? '', { body: 'Second, with **markdown**' });
  await comments.create(owner, made[4]?.id ?? '', { body: 'On the web' });
}

/** What a person sees of an export: no ids, numbers or times, people and labels by what they are. */
function seen(document: Export) {
  const labelName = new Map(document.labels.map((label) => [label.id, label.name]));
  const projectKey = new Map(document.projects.map((project) => [project.id, project.key]));
  const taskTitle = new Map(document.tasks.map((task) => [task.id, task.title]));
  return {
    labels: document.labels.map(({ name, color }) => ({ name, color })),
    projects: document.projects.map(({ key, name, description }) => ({ key, name, description })),
    // The export gives each project's tasks in board order, projects in no order of their own.
    tasks: [...document.tasks]
      .sort((a, b) => (projectKey.get(a.project_id) ?? '').localeCompare(projectKey.get(b.project_id) ?? ''))
      .map((task) => ({
        project: projectKey.get(task.project_id),
        title: task.title,
        description: task.description,
        status: task.status,
        priority: task.priority,
        labels: task.label_ids.map((id) => labelName.get(id)).sort(),
        due_date: task.due_date,
        assignee_id: task.assignee_id,
      })),
    // Each task's comments in the order written; tasks in no order of their own.
    comments: [...document.comments]
      .sort((a, b) => (taskTitle.get(a.task_id) ?? '').localeCompare(taskTitle.get(b.task_id) ?? ''))
      .map((comment) => ({
        task: taskTitle.get(comment.task_id),
        author_id: comment.author_id,
        body: comment.body,
      })),
  };
}

beforeAll(async () => {
  from = await createWorkspaceWithRoles(api.db);
  await fill(from);
  to = await emptyTwinOf(from);
});

describe('a Tasklane export imported into an empty workspace', () => {
  it('exports again as it was: projects, labels, tasks in order, comments', async () => {
    const exported = await exportOf(from);
    const file = JSON.stringify(exported);
    const preview = previewIn(
      await importCalls(api.app).run(to.owner.accessToken, to.slug, {
        source: 'tasklane',
        file,
        dryRun: true,
      }),
    );
    expect(preview.can_import, JSON.stringify(preview.problems)).toBe(true);
    expect(preview.counts).toEqual({ projects: 2, tasks: 6, comments: 3, labels: 2 });

    const done = importIn(
      await importCalls(api.app).run(to.owner.accessToken, to.slug, {
        source: 'tasklane',
        file,
        dryRun: false,
      }),
    );
    expect(done.projects.map((project) => project.key)).toEqual(['ENG', 'WEB']);

    expect(seen(await exportOf(to))).toEqual(seen(exported));
  });

  it('creates nothing new when imported a second time', async () => {
    const file = JSON.stringify(await exportOf(from));
    const again = importIn(
      await importCalls(api.app).run(to.owner.accessToken, to.slug, {
        source: 'tasklane',
        file,
        dryRun: false,
      }),
    );
    expect(again.counts).toEqual({ projects: 0, tasks: 0, comments: 0, labels: 0 });
    expect((await exportOf(to)).tasks).toHaveLength(6);
  });
});
