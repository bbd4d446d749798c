/**
 * POST /v1/tasks/{id}/restore (the usability review, item 11; docs/decisions/0038): a deleted task comes back
 * within 30 days as it was — comments, labels, assignee, attachments, its place — and the feed says
 * `task.restored`; meanwhile it is in no list, count, search or read; refusals are precise and change
 * nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiClient, bearer as withAuthorization, responseOf } from '../support/api-client.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { callFeed } from '../support/event-feed.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { labelCalls, projectCalls } from '../support/resource-calls.ts';
import {
  archive,
  eventsOfTask,
  labelIn,
  projectIn,
  storedTask,
  taskIn,
  type Project,
  type Task,
} from '../support/task-calls.ts';
import { aal2AccessTokenOf, withBearer } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';
import { useTaskTestApp } from '../support/task-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const { api, tasks, acme, globex } = useTaskTestApp();

/** A ready attachment on the task, as complete_attachment leaves it (the API's upload path needs Storage). */
async function attachmentOn(workspace: WorkspaceFixture, taskId: string): Promise<string> {
  const id = randomUUID();
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.attachments
         (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, status, uploaded_by, ready_at)
       values ($1::uuid, $2::uuid, $3::uuid, $2::text || '/' || $3::text || '/' || $1::text, 'plan.pdf',
         'application/pdf', 2048, 'ready', $4, now())`,
      [id, workspace.id, taskId, workspace.member.id],
    ),
  );
  return id;
}

const listAttachments = (bearer: string, taskId: string) =>
  callApi(api.app, `/api/v1/tasks/${taskId}/attachments`, withBearer(bearer));

/** The keys of the project's tasks in board order. */
async function boardOf(workspace: WorkspaceFixture, project: Project): Promise<string[]> {
  const response = await tasks().list(workspace.member.accessToken, workspace, project.key, '?limit=100');
  expect(response.status).toBe(200);
  return response.body.data.map((task) => task.key);
}

async function deleted(workspace: WorkspaceFixture, task: Task): Promise<void> {
  const response = await tasks().remove(workspace.member.accessToken, task.id);
  expect(response.status, response.text).toBe(204);
}

describe('POST /api/v1/tasks/{id}/restore', () => {
  it('brings a deleted task back as it was: comments, labels, assignee, attachments, its place', async () => {
    const project = await projectIn(api.app, acme);
    const label = await labelIn(api.app, acme);
    const first = await taskIn(api.app, acme, project.key, { title: 'First' });
    const task = await taskIn(api.app, acme, project.key, {
      title: 'Restore me',
      description: 'All of **this**',
      priority: 'high',
      assignee_id: acme.admin.id,
      due_date: '2027-03-01',
      label_ids: [label],
    });
    const last = await taskIn(api.app, acme, project.key, { title: 'Last' });
    const comments = commentCalls(api.app);
    for (const body of ['One', 'Two'])
      expect((await comments.create(acme.member.accessToken, task.id, { body })).status).toBe(201);
    await attachmentOn(acme, task.id);
    const commentsBefore = (await comments.list(acme.viewer.accessToken, task.id)).body;
    const attachmentsBefore = (await listAttachments(acme.viewer.accessToken, task.id)).body;

    await deleted(acme, task);
    const response = await tasks().restore(acme.member.accessToken, task.id);

    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ...task, version: task.version + 1, updated_at: expect.any(String) });
    expect(response.headers.get('ETag')).toBe(`"${task.version + 1}"`);
    expect((await tasks().get(acme.viewer.accessToken, task.id)).body).toEqual(response.body);
    expect((await tasks().getByKey(acme.viewer.accessToken, acme, task.key)).status).toBe(200);
    expect((await comments.list(acme.viewer.accessToken, task.id)).body).toEqual(commentsBefore);
    expect((await listAttachments(acme.viewer.accessToken, task.id)).body).toEqual(attachmentsBefore);
    expect(await boardOf(acme, project)).toEqual([first.key, task.key, last.key]);
  });

  it('records task.restored, with the task as its data, and no comment.created for its comments', async () => {
    const task = await taskIn(api.app, acme, (await projectIn(api.app, acme)).key);
    await commentCalls(api.app).create(acme.member.accessToken, task.id, { body: 'Kept' });
    await deleted(acme, task);
    const restored = (await tasks().restore(acme.admin.accessToken, task.id)).body;
    const events = await eventsOfTask(api.db, task.id);
    expect(events.map((event) => event.type)).toEqual([
      'task.created',
      'comment.created',
      'task.deleted',
      'task.restored',
    ]);
    expect(events.at(-1)).toMatchObject({
      actor_id: acme.admin.id,
      data: restored,
      previous_attributes: null,
    });
    const feed = await callFeed(api.app, acme.viewer.accessToken, acme, '?types=task.restored');
    expect(feed.status, feed.text).toBe(200);
    const data = feed.body.data;
    expect(data.filter((event) => event.task_id === task.id).map((event) => event.type)).toEqual([
      'task.restored',
    ]);
  });

  it('keeps the old place when free; when another task took it, lands right after that task', async () => {
    const project = await projectIn(api.app, acme);
    const first = await taskIn(api.app, acme, project.key, { title: 'A' });
    const gone = await taskIn(api.app, acme, project.key, { title: 'B' });
    const third = await taskIn(api.app, acme, project.key, { title: 'C' });
    const fourth = await taskIn(api.app, acme, project.key, { title: 'D' });
    await deleted(acme, gone);
    // D moves into the very place B had (as a move between A and C computes it).
    await asService(api.db, (sql) =>
      sql.query('update public.tasks set position = $2 where id = $1', [fourth.id, gone.position]),
    );
    const restored = (await tasks().restore(acme.member.accessToken, gone.id)).body;
    expect(restored.position > gone.position && restored.position < third.position).toBe(true);
    expect(await boardOf(acme, project)).toEqual([first.key, fourth.key, gone.key, third.key]);
  });

  it('leaves out a label deleted and an assignee who left meanwhile', async () => {
    const team = await createWorkspaceWithRoles(api.db);
    const project = await projectIn(api.app, team);
    const [kept, dropped] = [await labelIn(api.app, team), await labelIn(api.app, team)];
    const task = await taskIn(api.app, team, project.key, {
      assignee_id: team.admin.id,
      label_ids: [dropped, kept],
    });
    await deleted(team, task);
    expect((await labelCalls(api.app, team).remove(team.admin.accessToken, dropped)).status).toBe(204);
    expect((await memberCalls(api.app, team).remove(team.owner.accessToken, team.admin.id)).status).toBe(204);
    const restored = await tasks().restore(team.member.accessToken, task.id);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ assignee_id: null, label_ids: [kept] });
  });

  it('hides a deleted task from lists, counts, search, my tasks, the export, reads by id and key, and what hangs off it', async () => {
    const project = await projectIn(api.app, acme);
    const word = `hidden${randomUUID().slice(0, 8)}`;
    const task = await taskIn(api.app, acme, project.key, {
      title: `Find the ${word}`,
      assignee_id: acme.member.id,
    });
    const bearer = acme.viewer.accessToken;
    const myTasks = async () =>
      (await tasks().listInWorkspace(acme.member.accessToken, acme, '?assignee=me&limit=100')).body.data.map(
        (t) => t.id,
      );
    const exported = async () => {
      const response = await responseOf(
        apiClient(api.app).GET('/v1/workspaces/{slug}/export', {
          params: { path: { slug: acme.slug } },
          headers: withAuthorization(acme.admin.accessToken),
        }),
      );
      expect(response.status, response.text).toBe(200);
      return response.body.tasks.map((t) => t.id);
    };
    expect(await myTasks()).toContain(task.id);
    expect(await exported()).toContain(task.id);
    const counted = async () => (await tasks().countInProject(bearer, acme, project.key)).body.total;
    expect(await counted()).toBe(1);
    await deleted(acme, task);

    expect(await boardOf(acme, project)).toEqual([]);
    expect(await counted()).toBe(0);
    expect((await tasks().list(bearer, acme, project.key, `?q=${word}`)).body.data).toEqual([]);
    expect((await tasks().listInWorkspace(bearer, acme, `?q=${word}`)).body.data).toEqual([]);
    expect((await tasks().countInWorkspace(bearer, acme, `?q=${word}`)).body.total).toBe(0);
    expectProblem(await tasks().get(bearer, task.id), 404, 'not_found');
    expectProblem(await tasks().getByKey(bearer, acme, task.key), 404, 'not_found');
    expectProblem(await commentCalls(api.app).list(bearer, task.id), 404, 'not_found');
    expectProblem(await listAttachments(bearer, task.id), 404, 'not_found');
    expectProblem(
      await tasks().update(acme.member.accessToken, task.id, { title: 'Changed' }),
      404,
      'not_found',
    );
    expect(await myTasks()).not.toContain(task.id);
    expect(await exported()).not.toContain(task.id);

    expect((await tasks().restore(acme.member.accessToken, task.id)).status).toBe(200);
    expect(await counted()).toBe(1);
    expect(await myTasks()).toContain(task.id);
    expect(await exported()).toContain(task.id);
    expect((await tasks().list(bearer, acme, project.key, `?q=${word}`)).body.data.map((t) => t.id)).toEqual([
      task.id,
    ]);
  });

  it('refuses viewers (403), outsiders and other workspaces (404), a read token (403), and MFA at aal1', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    await deleted(acme, task);
    expectProblem(await tasks().restore(acme.viewer.accessToken, task.id), 403, 'forbidden');
    expectProblem(await tasks().restore(acme.outsider.accessToken, task.id), 404, 'not_found');
    expectProblem(await tasks().restore(globex.owner.accessToken, task.id), 404, 'not_found');
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(await tasks().restore(readToken, task.id), 403, 'insufficient_scope');
    expect(await storedTask(api.db, task.id)).toBeUndefined();

    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictProject = await projectIn(api.app, strict, await aal2AccessTokenOf(strict.admin));
    const strictMember = await aal2AccessTokenOf(strict.member);
    const created = await tasks().create(strictMember, strict, strictProject.key, { title: 'Strict' });
    expect((await tasks().remove(strictMember, created.body.id)).status).toBe(204);
    expectProblem(await tasks().restore(strict.member.accessToken, created.body.id), 403, 'mfa_required');
    expect((await tasks().restore(strictMember, created.body.id)).status).toBe(200);
  });

  it('answers 404 for a task never deleted or purged, 409 for one not deleted, changing nothing', async () => {
    const project = await projectIn(api.app, acme);
    const live = await taskIn(api.app, acme, project.key);
    const notDeleted = expectProblem(
      await tasks().restore(acme.member.accessToken, live.id),
      409,
      'task_not_deleted',
    );
    expect(notDeleted.detail).toBe(`${live.key} is not deleted; there is nothing to restore.`);
    expect(await storedTask(api.db, live.id)).toMatchObject({ version: 1 });

    const unknown = expectProblem(
      await tasks().restore(acme.member.accessToken, randomUUID()),
      404,
      'not_found',
    );
    expect(unknown.detail).toMatch(/deleted tasks can be restored for 30 days/);
    expectProblem(await tasks().restore(acme.member.accessToken, 'not-a-uuid'), 404, 'not_found');

    const purged = await taskIn(api.app, acme, project.key);
    await deleted(acme, purged);
    await asService(api.db, async (sql) => {
      await sql.query(
        `update private.deleted_tasks set deleted_at = now() - interval '31 days' where id = $1`,
        [purged.id],
      );
      await sql.query('select * from private.delete_expired_rows()');
    });
    expectProblem(await tasks().restore(acme.member.accessToken, purged.id), 404, 'not_found');
    expect(await storedTask(api.db, purged.id)).toBeUndefined();
  });

  it('refuses a task of an archived project (409 project_archived) and of a deleted one (409 project_deleted)', async () => {
    const archivedProject = await projectIn(api.app, acme);
    const inArchived = await taskIn(api.app, acme, archivedProject.key);
    await deleted(acme, inArchived);
    await archive(api.app, acme, archivedProject.key);
    expectProblem(await tasks().restore(acme.owner.accessToken, inArchived.id), 409, 'project_archived');
    expect(await storedTask(api.db, inArchived.id)).toBeUndefined();

    const doomedProject = await projectIn(api.app, acme);
    const inDoomed = await taskIn(api.app, acme, doomedProject.key);
    await deleted(acme, inDoomed);
    expect((await projectCalls(api.app, acme).remove(acme.admin.accessToken, doomedProject.key)).status).toBe(
      204,
    );
    const refused = expectProblem(
      await tasks().restore(acme.owner.accessToken, inDoomed.id),
      409,
      'project_deleted',
    );
    expect(refused.detail).toMatch(/project was deleted/);
  });

  it('replays a retry with the same Idempotency-Key; a second restore is 409', async () => {
    const task = await taskIn(api.app, acme, (await projectIn(api.app, acme)).key);
    await deleted(acme, task);
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await tasks().restore(acme.member.accessToken, task.id, headers);
    const again = await tasks().restore(acme.member.accessToken, task.id, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectProblem(await tasks().restore(acme.member.accessToken, task.id), 409, 'task_not_deleted');
  });

  it('never gives a restored task a new number, nor its number to another task', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    await deleted(acme, task);
    const next = await taskIn(api.app, acme, project.key);
    const restored = (await tasks().restore(acme.member.accessToken, task.id)).body;
    expect([restored.number, next.number]).toEqual([1, 2]);
    expect(restored.key).toBe(task.key);
  });
});
