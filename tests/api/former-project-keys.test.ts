/**
 * Old task keys keep resolving after a project's key changes (the settings and invitations work): `WEB-1`
 * still answers the task that is now `SITE-1`, until another project of the workspace takes `WEB`.
 */
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/api-request.ts';
import { projectCalls } from '../support/resource-calls.ts';
import { projectIn, taskIn, uniqueProjectKey, type Project, type Task } from '../support/task-calls.ts';
import { createApiTokenFor, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { useTaskTestApp } from '../support/task-fixture.ts';

const { api, tasks, acme, globex } = useTaskTestApp();

/** Changes the project's key through the API, as the workspace's admin; the new key. */
async function rekey(
  workspace: WorkspaceFixture,
  project: Project,
  key = uniqueProjectKey(),
): Promise<string> {
  const response = await projectCalls(api.app, workspace).update(workspace.admin.accessToken, project.key, {
    key,
  });
  expect(response.status, response.text).toBe(200);
  return key;
}

/** The same task's key under the project's former key `projectKey`. */
const formerKeyOf = (task: Task, projectKey: string) => `${projectKey}-${task.number}`;

describe('GET /api/v1/workspaces/{slug}/tasks/{task_key} after a change of project key', () => {
  it('answers the task by its old key, pointing at its own address', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key, { title: 'Renamed along' });
    const newKey = await rekey(acme, project);
    const current = (await tasks().get(acme.viewer.accessToken, task.id)).body;
    expect(current.key).toBe(`${newKey}-1`);

    const response = await tasks().getByKey(acme.viewer.accessToken, acme, formerKeyOf(task, project.key));
    expect(response.status).toBe(200);
    expect(response.body).toEqual(current);
    const base = `http://api.test${acme.path}/tasks/${task.key}`;
    expect(new URL(response.headers.get('Content-Location') ?? '', base).pathname).toBe(
      `/api/v1/tasks/${task.id}`,
    );
    expect((await tasks().getByKey(acme.viewer.accessToken, acme, current.key)).body.id).toBe(task.id);
    const readToken = await createApiTokenFor(api.app, acme.viewer, 'read');
    expect((await tasks().getByKey(readToken, acme, task.key)).body.id).toBe(task.id);
  });

  it('answers every key the project had, and 404 for numbers it has no task of', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    const second = await rekey(acme, project);
    await rekey(acme, { ...project, key: second });
    for (const key of [project.key, second]) {
      expect((await tasks().getByKey(acme.member.accessToken, acme, `${key}-1`)).body.id).toBe(task.id);
      expectProblem(await tasks().getByKey(acme.member.accessToken, acme, `${key}-2`), 404, 'not_found');
    }
  });

  it('answers the project that has the key now, once another project takes it', async () => {
    const renamed = await projectIn(api.app, acme);
    const old = await taskIn(api.app, acme, renamed.key);
    await taskIn(api.app, acme, renamed.key);
    await rekey(acme, renamed);
    const taker = await projectIn(api.app, acme);
    await rekey(acme, taker, renamed.key);
    const theirs = await taskIn(api.app, acme, renamed.key);

    expect((await tasks().getByKey(acme.member.accessToken, acme, `${renamed.key}-1`)).body.id).toBe(
      theirs.id,
    );
    expect(theirs.id).not.toBe(old.id);
    // The taker has no task 2: the renamed project's task 2 does not show through its former key.
    expectProblem(
      await tasks().getByKey(acme.member.accessToken, acme, `${renamed.key}-2`),
      404,
      'not_found',
    );
  });

  it('answers the most recent holder of a key two projects gave up', async () => {
    const first = await projectIn(api.app, acme);
    await taskIn(api.app, acme, first.key);
    await rekey(acme, first);
    const second = await projectIn(api.app, acme);
    await rekey(acme, second, first.key);
    const latest = await taskIn(api.app, acme, first.key);
    await rekey(acme, { ...second, key: first.key });
    expect((await tasks().getByKey(acme.member.accessToken, acme, `${first.key}-1`)).body.id).toBe(latest.id);
  });

  it('forgets the former keys of a deleted project', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    const newKey = await rekey(acme, project);
    const removed = await projectCalls(api.app, acme).remove(acme.admin.accessToken, newKey);
    expect(removed.status, removed.text).toBe(204);
    expectProblem(await tasks().getByKey(acme.member.accessToken, acme, task.key), 404, 'not_found');
  });

  it('does not fall back to an earlier holder of a key once its latest holder is deleted', async () => {
    const first = await projectIn(api.app, acme);
    const old = await taskIn(api.app, acme, first.key);
    await rekey(acme, first);
    const second = await projectIn(api.app, acme);
    await rekey(acme, second, first.key);
    await taskIn(api.app, acme, first.key);
    const removed = await projectCalls(api.app, acme).remove(acme.admin.accessToken, first.key);
    expect(removed.status, removed.text).toBe(204);
    expectProblem(await tasks().getByKey(acme.member.accessToken, acme, old.key), 404, 'not_found');
  });

  it("never answers another workspace's former keys, nor outsiders", async () => {
    const theirs = await projectIn(api.app, globex);
    const task = await taskIn(api.app, globex, theirs.key);
    await rekey(globex, theirs);
    expectProblem(await tasks().getByKey(acme.owner.accessToken, acme, task.key), 404, 'not_found');
    expectProblem(await tasks().getByKey(acme.owner.accessToken, globex, task.key), 404, 'not_found');
    expectProblem(await tasks().getByKey(globex.outsider.accessToken, globex, task.key), 404, 'not_found');
    expect((await tasks().getByKey(globex.viewer.accessToken, globex, task.key)).body.id).toBe(task.id);
  });
});
