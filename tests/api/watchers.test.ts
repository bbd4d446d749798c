import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { storedNotifications, storedWatchers, watcherCalls } from '../support/notification-calls.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import { projectIn, taskCalls, taskIn, type Task } from '../support/task-calls.ts';
import { aal2AccessTokenOf, withBearer, type TestUser } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });

const watchers = () => watcherCalls(api.app);
const tasks = () => taskCalls(api.app);

let ws: WorkspaceFixture;
let key: string;

beforeAll(async () => {
  ws = await createWorkspaceWithRoles(api.db);
  key = (await projectIn(api.app, ws)).key;
});

const sorted = (ids: string[]) => [...ids].sort();

/** What `user` was told of the task, oldest first, as [type, change_count]. */
async function toldOf(user: TestUser, taskId: string) {
  const rows = await storedNotifications(api.db, 'n.user_id = $1 and n.task_id = $2', [user.id, taskId]);
  return rows.map((n) => [n.type, n.change_count]);
}

describe('watching a task', () => {
  let task: Task;

  beforeAll(async () => {
    task = await taskIn(api.app, ws, key); // the member creates it
  });

  it('the creator watches a new task', async () => {
    const response = await watchers().list(ws.member.accessToken, task.id);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      object: 'list',
      task_id: task.id,
      watching: true,
      data: [
        {
          object: 'watcher',
          user_id: ws.member.id,
          display_name: 'member',
          watching_since: expect.stringMatching(ISO_TIMESTAMP),
        },
      ],
    });
    expect((await watchers().list(ws.viewer.accessToken, task.id)).body.watching).toBe(false);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
  });

  it('a viewer watches (once, however often asked), then stops (as often as asked)', async () => {
    const watched = await watchers().watch(ws.viewer.accessToken, task.id);
    expect(watched.status, watched.text).toBe(200);
    expect(watched.body).toMatchObject({ object: 'list', task_id: task.id, watching: true });
    expect(watched.body.data.map((w) => [w.user_id, w.display_name])).toEqual([
      [ws.member.id, 'member'],
      [ws.viewer.id, 'viewer'],
    ]);
    expect(await storedWatchers(api.db, task.id)).toEqual(sorted([ws.member.id, ws.viewer.id]));

    const again = await watchers().watch(ws.viewer.accessToken, task.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.map((w) => w.user_id)).toEqual([ws.member.id, ws.viewer.id]);
    expect(again.body.data[1]?.watching_since).toBe(watched.body.data[1]?.watching_since);
    expect(await storedWatchers(api.db, task.id)).toEqual(sorted([ws.member.id, ws.viewer.id]));

    const stopped = await watchers().unwatch(ws.viewer.accessToken, task.id);
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body).toMatchObject({ watching: false });
    expect(stopped.body.data.map((w) => w.user_id)).toEqual([ws.member.id]);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);

    const stoppedAgain = await watchers().unwatch(ws.viewer.accessToken, task.id);
    expect(stoppedAgain.status, stoppedAgain.text).toBe(200);
    expect(stoppedAgain.body).toMatchObject({ watching: false });
    expect(stoppedAgain.body.data.map((w) => w.user_id)).toEqual([ws.member.id]);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
  });
});

describe('a deleted task', () => {
  /** A task the member created, the viewer watches and the admin commented on (so watches). */
  async function watchedTask(): Promise<Task> {
    const task = await taskIn(api.app, ws, key);
    expect((await watchers().watch(ws.viewer.accessToken, task.id)).status).toBe(200);
    await commentCalls(api.app).create(ws.admin.accessToken, task.id, { body: 'Hello' });
    expect(await toldOf(ws.viewer, task.id)).toEqual([['commented', 1]]);
    expect(await storedWatchers(api.db, task.id)).toEqual(sorted([ws.member.id, ws.viewer.id, ws.admin.id]));
    return task;
  }

  it('takes its watchers and notifications with it', async () => {
    const task = await watchedTask();
    expect((await tasks().remove(ws.member.accessToken, task.id)).status).toBe(204);
    expect(await toldOf(ws.viewer, task.id)).toEqual([]);
    expect(await storedWatchers(api.db, task.id)).toEqual([]);
    expectProblem(await watchers().list(ws.viewer.accessToken, task.id), 404, 'not_found');
    expectProblem(await watchers().watch(ws.viewer.accessToken, task.id), 404, 'not_found');
    expect(await storedWatchers(api.db, task.id)).toEqual([]);
  });

  it('restored, it has its watchers back as they were (POST /restore brings a task back as it was)', async () => {
    const task = await watchedTask();
    expect((await tasks().remove(ws.member.accessToken, task.id)).status).toBe(204);
    expect((await tasks().restore(ws.member.accessToken, task.id)).status).toBe(200);
    const after = await watchers().list(ws.member.accessToken, task.id);
    expect(after.status, after.text).toBe(200);
    expect(sorted(after.body.data.map((w) => w.user_id))).toEqual(
      sorted([ws.member.id, ws.viewer.id, ws.admin.id]),
    );
    expect(after.body.watching).toBe(true);
  });
});

describe('what a watcher hears', () => {
  it('hears of a comment and of status changes (move and PATCH), and nothing more after unwatching', async () => {
    const task = (await tasks().create(ws.owner.accessToken, ws, key, { title: 'Watched', status: 'todo' }))
      .body;
    expect((await watchers().watch(ws.viewer.accessToken, task.id)).status).toBe(200);

    const commented = await commentCalls(api.app).create(ws.admin.accessToken, task.id, { body: 'Hello' });
    expect(commented.status, commented.text).toBe(201);
    expect(await toldOf(ws.viewer, task.id)).toEqual([['commented', 1]]);

    const moved = await tasks().move(ws.admin.accessToken, task.id, { status: 'in_progress' });
    expect(moved.status, moved.text).toBe(200);
    expect(await toldOf(ws.viewer, task.id)).toEqual([
      ['commented', 1],
      ['status_changed', 1],
    ]);

    // A PATCH of the status by someone else is a second change to tell of (not folded: another actor).
    const patched = await tasks().update(ws.member.accessToken, task.id, { status: 'done' });
    expect(patched.status, patched.text).toBe(200);
    expect(await toldOf(ws.viewer, task.id)).toEqual([
      ['commented', 1],
      ['status_changed', 1],
      ['status_changed', 1],
    ]);
    // A PATCH that changes no status tells no watcher, nor a move within the same column.
    await tasks().update(ws.member.accessToken, task.id, { title: 'Renamed' });
    const other = (await tasks().create(ws.owner.accessToken, ws, key, { title: 'Other', status: 'done' }))
      .body;
    const reordered = await tasks().move(ws.member.accessToken, task.id, {
      status: 'done',
      after_id: other.id,
    });
    expect(reordered.status, reordered.text).toBe(200);
    expect(await toldOf(ws.viewer, task.id)).toEqual([
      ['commented', 1],
      ['status_changed', 1],
      ['status_changed', 1],
    ]);

    expect((await watchers().unwatch(ws.viewer.accessToken, task.id)).status).toBe(200);
    await commentCalls(api.app).create(ws.admin.accessToken, task.id, { body: 'Still there?' });
    await tasks().move(ws.admin.accessToken, task.id, { status: 'todo' });
    await tasks().update(ws.owner.accessToken, task.id, { status: 'in_progress' });
    expect(await toldOf(ws.viewer, task.id)).toEqual([
      ['commented', 1],
      ['status_changed', 1],
      ['status_changed', 1],
    ]);
    // The owner, who created it and still watches it, heard of the later ones.
    expect((await toldOf(ws.owner, task.id)).map(([type]) => type)).toContain('status_changed');
  });
});

describe('who may', () => {
  let task: Task;

  beforeAll(async () => {
    task = await taskIn(api.app, ws, key);
  });

  it('answers 404 to an outsider on GET, PUT and DELETE, and changes nothing', async () => {
    const outsider = ws.outsider.accessToken;
    expectProblem(await watchers().list(outsider, task.id), 404, 'not_found');
    expectProblem(await watchers().watch(outsider, task.id), 404, 'not_found');
    expectProblem(await watchers().unwatch(outsider, task.id), 404, 'not_found');
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
  });

  it('answers 404 for a task that does not exist, and for an id that is not a UUID', async () => {
    const unknown = randomUUID();
    expectProblem(await watchers().list(ws.member.accessToken, unknown), 404, 'not_found');
    expectProblem(await watchers().watch(ws.member.accessToken, unknown), 404, 'not_found');
    expectProblem(await watchers().unwatch(ws.member.accessToken, unknown), 404, 'not_found');
    const notUuid = await callApi(api.app, '/api/v1/tasks/ENG-1/watch', {
      ...withBearer(ws.member.accessToken),
      method: 'PUT',
    });
    expectProblem(notUuid, 404, 'not_found');
  });

  it('answers 400 to a query parameter, watching nothing', async () => {
    const response = await callApi(api.app, `/api/v1/tasks/${task.id}/watch?notify=all`, {
      ...withBearer(ws.viewer.accessToken),
      method: 'PUT',
    });
    const problem = expectProblem(response, 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual(['query.notify']);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
  });

  it('answers 403 mfa_required in a workspace that requires MFA to an aal1 session; aal2 watches', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictTask = (
      await tasks().create(
        await aal2AccessTokenOf(strict.owner),
        strict,
        (await projectIn(api.app, strict, await aal2AccessTokenOf(strict.admin))).key,
        {
          title: 'Strict',
        },
      )
    ).body;
    expectProblem(await watchers().watch(strict.viewer.accessToken, strictTask.id), 403, 'mfa_required');
    expectProblem(await watchers().list(strict.viewer.accessToken, strictTask.id), 403, 'mfa_required');
    expect(await storedWatchers(api.db, strictTask.id)).toEqual([strict.owner.id]);
    const aal2 = await aal2AccessTokenOf(strict.viewer);
    expect((await watchers().watch(aal2, strictTask.id)).body.watching).toBe(true);
    expect(await storedWatchers(api.db, strictTask.id)).toEqual(sorted([strict.owner.id, strict.viewer.id]));
  });

  it('answers 403 insufficient_scope to a read token on PUT and DELETE; it may list', async () => {
    const readToken = await createApiTokenFor(api.app, ws.viewer, 'read');
    expectProblem(await watchers().watch(readToken, task.id), 403, 'insufficient_scope');
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
    const memberRead = await createApiTokenFor(api.app, ws.member, 'read');
    expectProblem(await watchers().unwatch(memberRead, task.id), 403, 'insufficient_scope');
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.member.id]);
    expect((await watchers().list(readToken, task.id)).status).toBe(200);
  });
});
