/**
 * The event log through the API: a task's activity (GET /v1/tasks/{id}/events) and a workspace's change
 * feed (GET /v1/workspaces/{slug}/events): who may read them, what an event holds (its actor, never an
 * e-mail address), the `types` filter, cursors, paging and polling, and the 30-day retention. The
 * concurrency proof is tests/api/change-feed.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import {
  callActivity,
  callFeed,
  insertProject,
  insertTaskAs,
  readFeed,
  writeAs,
  type Event,
} from '../support/event-feed.ts';
import { meCalls } from '../support/me-calls.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { ISO_TIMESTAMP, labelCalls } from '../support/resource-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const api = useTestApp();

const typesOf = (events: readonly Event[]) => events.map((event) => event.type);
const query = (parameters: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(parameters).map(([name, value]): [string, string] => [name, String(value)])).toString()}`;
/** The id of the resource an event tells of (members have none: their user_id names them). */
const idOf = (event: Event) => ('id' in event.data ? event.data.id : undefined);

/** The whole feed after `after`, followed page by page through `Link` until it has caught up. */
async function readToTheEnd(bearer: string, workspace: WorkspaceFixture, first: string): Promise<Event[]> {
  const events: Event[] = [];
  let next: string | undefined = first;
  while (next !== undefined) {
    const response = await callFeed(api.app, bearer, workspace, next);
    expect(response.status, response.text).toBe(200);
    const page = response.body;
    events.push(...page.data);
    const link = response.headers.get('link');
    expect(link !== null, 'Link is sent exactly when has_more').toBe(page.has_more);
    next = link?.match(/^<([^>]*)>; rel="next"$/)?.[1];
  }
  return events;
}

async function createLabel(bearer: string, workspace: WorkspaceFixture, name: string, color = '#d73a4a') {
  const response = await labelCalls(api.app, workspace).create(bearer, { name, color });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('the change feed', () => {
  let workspace: WorkspaceFixture;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
  });

  it('lets every member read it, viewers too, in commit order; outsiders get 404', async () => {
    for (const person of [workspace.owner, workspace.admin, workspace.member, workspace.viewer]) {
      const feed = await readFeed(api.app, person.accessToken, workspace);
      expect(feed.object).toBe('list');
      expect(typesOf(feed.data).slice(0, 4)).toEqual([
        'member.added',
        'member.added',
        'member.added',
        'member.added',
      ]);
      expect(feed.data.map((event) => event.seq)).toEqual(feed.data.map((_, index) => index + 1));
    }
    const first = (await readFeed(api.app, workspace.viewer.accessToken, workspace)).data[0];
    expect(first).toMatchObject({
      object: 'event',
      seq: 1,
      workspace_id: workspace.id,
      project_id: null,
      task_id: null,
      // The fixture inserts its members as the service: nobody signed in did it.
      actor: { type: 'system', user_id: null, api_token_id: null },
      data: { object: 'member', workspace_id: workspace.id, role: 'owner', display_name: 'owner' },
      previous_attributes: null,
    });
    expect(first?.created_at).toMatch(ISO_TIMESTAMP);
    expect(first?.id).toMatch(/^[1-9][0-9]*$/);

    expectProblem(await callFeed(api.app, workspace.outsider.accessToken, workspace), 404, 'not_found');
    expectProblem(await callApi(api.app, `${workspace.path}/events`), 401, 'unauthenticated');
  });

  it('pages with limit, and next_cursor is always set so that a client can poll', async () => {
    const all = await readToTheEnd(workspace.viewer.accessToken, workspace, query({ limit: 200 }));
    const paged = await readToTheEnd(workspace.viewer.accessToken, workspace, query({ limit: 2 }));
    expect(paged).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(4);

    const caughtUp = await readFeed(api.app, workspace.viewer.accessToken, workspace, query({ limit: 200 }));
    expect(caughtUp.has_more).toBe(false);
    const idle = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ after: caughtUp.next_cursor }),
    );
    expect(idle).toEqual({ object: 'list', data: [], next_cursor: caughtUp.next_cursor, has_more: false });

    const label = await createLabel(workspace.member.accessToken, workspace, 'polled');
    const news = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ after: idle.next_cursor }),
    );
    expect(news.data.map((event) => [event.type, idOf(event)])).toEqual([['label.created', label.id]]);
    expect(news.data[0]?.seq).toBe((all.at(-1)?.seq ?? 0) + 1);
    expect(news.next_cursor).not.toBe(idle.next_cursor);
  });

  it('keeps the other query parameters in Link, with after set to next_cursor', async () => {
    const response = await callFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ types: 'member.*', limit: 1 }),
    );
    const page = response.body;
    expect(page.has_more).toBe(true);
    const link = new URLSearchParams(response.headers.get('link')?.match(/^<\?([^>]*)>; rel="next"$/)?.[1]);
    expect(Object.fromEntries(link)).toEqual({ types: 'member.*', limit: '1', after: page.next_cursor });
  });

  it('filters by types, exact or a resource’s (`label.*`), and moves the cursor past what it left out', async () => {
    const filtered = await createWorkspaceWithRoles(api.db);
    const label = await createLabel(filtered.owner.accessToken, filtered, 'bug');
    const renamed = await labelCalls(api.app, filtered).update(filtered.owner.accessToken, label.id, {
      color: '#0e8a16',
    });
    expect(renamed.status).toBe(200);

    const labels = await readFeed(
      api.app,
      filtered.viewer.accessToken,
      filtered,
      query({ types: 'label.*' }),
    );
    expect(typesOf(labels.data)).toEqual(['label.created', 'label.updated']);
    const some = await readFeed(
      api.app,
      filtered.viewer.accessToken,
      filtered,
      query({ types: 'label.updated,member.added' }),
    );
    expect(typesOf(some.data)).toEqual([
      'member.added',
      'member.added',
      'member.added',
      'member.added',
      'label.updated',
    ]);

    // Nothing of the kind: the page is empty, yet the cursor has moved past every event read.
    const tasks = await readFeed(api.app, filtered.viewer.accessToken, filtered, query({ types: 'task.*' }));
    expect(tasks).toMatchObject({ data: [], has_more: false });
    const after = await readFeed(
      api.app,
      filtered.viewer.accessToken,
      filtered,
      query({ after: tasks.next_cursor }),
    );
    expect(after.data).toEqual([]);
  });

  it.each([
    ['an unknown type', 'task.exploded'],
    ['an unknown resource', 'invoice.*'],
    ['a bare star', '*'],
    ['a prefix that is not a whole resource', 'ta*'],
    ['an empty entry', 'task.created,'],
    ['spaces', 'task.created, task.moved'],
    ['a list over 512 characters', Array.from({ length: 50 }, () => 'task.created').join(',')],
  ])('refuses %s in types with 400', async (_, types) => {
    const problem = expectProblem(
      await callFeed(api.app, workspace.viewer.accessToken, workspace, query({ types })),
      400,
      'bad_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['query.types']);
  });

  it('takes the cursor in the Feed-After header as in after, but not in both', async () => {
    const bearer = workspace.viewer.accessToken;
    const start = await readFeed(api.app, bearer, workspace, query({ limit: 1 }));
    const byQuery = await callFeed(api.app, bearer, workspace, query({ after: start.next_cursor }));
    const byHeader = await callFeed(api.app, bearer, workspace, query({ limit: 200 }), start.next_cursor);
    expect(byHeader.status, byHeader.text).toBe(200);
    expect(byHeader.body).toEqual(byQuery.body);
    expect(byHeader.body.data.length).toBeGreaterThan(0);

    const paged = await callFeed(api.app, bearer, workspace, query({ limit: 1 }), start.next_cursor);
    expect(paged.body.has_more).toBe(true);
    const link = new URLSearchParams(paged.headers.get('link')?.match(/^<\?([^>]*)>; rel="next"$/)?.[1]);
    expect(Object.fromEntries(link)).toEqual({ limit: '1', after: paged.body.next_cursor });

    const both = expectProblem(
      await callFeed(api.app, bearer, workspace, query({ after: start.next_cursor }), start.next_cursor),
      400,
      'bad_request',
    );
    expect(both.errors).toEqual([
      {
        path: 'header.feed-after',
        code: 'invalid',
        message: 'must not be sent with the query parameter after',
      },
    ]);

    const elsewhere = await createWorkspaceWithRoles(api.db);
    const theirs = await readFeed(api.app, elsewhere.owner.accessToken, elsewhere);
    for (const cursor of ['not-a-cursor', 'WzEsIm5vIl0', 'x'.repeat(513), theirs.next_cursor]) {
      const problem = expectProblem(
        await callFeed(api.app, bearer, workspace, '', cursor),
        400,
        'bad_request',
      );
      expect(problem.errors?.map((error) => error.path)).toEqual(['header.feed-after']);
    }
  });

  it('refuses a cursor the feed did not issue with 400', async () => {
    const elsewhere = await createWorkspaceWithRoles(api.db);
    const theirs = await readFeed(api.app, elsewhere.owner.accessToken, elsewhere);
    const otherFeed = expectProblem(
      await callFeed(api.app, workspace.owner.accessToken, workspace, query({ after: theirs.next_cursor })),
      400,
      'bad_request',
    );
    expect(otherFeed.detail).toContain("another workspace's feed");

    const projectId = await insertProject(api.db, workspace);
    const taskId = await insertTaskAs(api.db, { userId: workspace.member.id }, projectId);
    await writeAs(
      api.db,
      { userId: workspace.member.id },
      `update public.tasks set title = 'Twice' where id = $1`,
      [taskId],
    );
    const activity = (await callActivity(api.app, workspace.owner.accessToken, taskId, query({ limit: 1 })))
      .body;
    expect(activity.next_cursor).toEqual(expect.any(String));
    for (const after of [activity.next_cursor ?? '', 'not-a-cursor', 'WzEsIm5vIl0', 'x'.repeat(513)]) {
      const problem = expectProblem(
        await callFeed(api.app, workspace.owner.accessToken, workspace, query({ after })),
        400,
        'bad_request',
      );
      expect(problem.errors?.map((error) => error.path)).toEqual(['query.after']);
    }
    // …and a feed cursor is no cursor of a task's activity.
    expectProblem(
      await callActivity(api.app, workspace.owner.accessToken, taskId, query({ cursor: theirs.next_cursor })),
      400,
      'bad_request',
    );
    // The feed reads `after`, not the lists' `cursor`.
    expectProblem(
      await callFeed(api.app, workspace.owner.accessToken, workspace, query({ cursor: theirs.next_cursor })),
      400,
      'bad_request',
    );
  });
});

describe('a task’s activity', () => {
  let workspace: WorkspaceFixture;
  let projectId: string;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
    projectId = await insertProject(api.db, workspace);
  });

  it('tells what happened to the task, oldest first, to every member; outsiders get 404', async () => {
    const member = { userId: workspace.member.id };
    const taskId = await insertTaskAs(api.db, member, projectId, 'Fix the login');
    await writeAs(api.db, member, `update public.tasks set title = 'Fix the sign-in' where id = $1`, [
      taskId,
    ]);
    await writeAs(api.db, member, `update public.tasks set status = 'done', position = 'b0' where id = $1`, [
      taskId,
    ]);
    const other = await insertTaskAs(api.db, member, projectId, 'Not this one');

    const response = await callActivity(api.app, workspace.viewer.accessToken, taskId);
    expect(response.status, response.text).toBe(200);
    const activity = response.body;
    expect(typesOf(activity.data)).toEqual(['task.created', 'task.updated', 'task.moved']);
    expect(activity.next_cursor).toBeNull();
    const [created, updated, moved] = activity.data;
    expect(created).toMatchObject({
      project_id: projectId,
      task_id: taskId,
      actor: { type: 'user', user_id: workspace.member.id, api_token_id: null },
      data: {
        object: 'task',
        id: taskId,
        title: 'Fix the login',
        status: 'todo',
        version: 1,
        completed_at: null,
      },
      previous_attributes: null,
    });
    expect(updated).toMatchObject({
      data: { title: 'Fix the sign-in', version: 2 },
      previous_attributes: { title: 'Fix the login' },
    });
    expect(moved?.data).toMatchObject({ status: 'done', position: 'b0', version: 3 });
    expect(moved?.data).toHaveProperty('completed_at', expect.stringMatching(ISO_TIMESTAMP));
    expect(moved?.previous_attributes).toEqual({
      status: 'todo',
      position: expect.any(String),
      completed_at: null,
    });
    expect(activity.data.every((event) => event.task_id === taskId)).toBe(true);
    expect(activity.data.some((event) => event.task_id === other)).toBe(false);

    expectProblem(await callActivity(api.app, workspace.outsider.accessToken, taskId), 404, 'not_found');
  });

  it('includes what happened to its comments', async () => {
    const member = { userId: workspace.member.id };
    const taskId = await insertTaskAs(api.db, member, projectId);
    const [comment] = await writeAs<{ id: string }>(
      api.db,
      member,
      `insert into public.comments (task_id, author_id, body) values ($1, $2, 'Looks good') returning id`,
      [taskId, workspace.member.id],
    );

    const response = await callActivity(api.app, workspace.viewer.accessToken, taskId);
    expect(response.status, response.text).toBe(200);
    const activity = response.body;
    expect(typesOf(activity.data)).toEqual(['task.created', 'comment.created']);
    expect(activity.data[1]).toMatchObject({
      task_id: taskId,
      project_id: projectId,
      data: { object: 'comment', id: comment?.id, body: 'Looks good' },
    });
  });

  it('pages by cursor', async () => {
    const member = { userId: workspace.member.id };
    const taskId = await insertTaskAs(api.db, member, projectId);
    for (const title of ['Two', 'Three', 'Four']) {
      await writeAs(api.db, member, `update public.tasks set title = $2 where id = $1`, [taskId, title]);
    }
    const seen: Event[] = [];
    let cursor: string | null = null;
    do {
      const response = await callActivity(
        api.app,
        workspace.member.accessToken,
        taskId,
        cursor ? query({ limit: 3, cursor }) : query({ limit: 3 }),
      );
      expect(response.status).toBe(200);
      const page = response.body;
      expect(response.headers.get('link') !== null).toBe(page.next_cursor !== null);
      seen.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen.map((event) => (event.data as { title?: string }).title)).toEqual([
      expect.any(String),
      'Two',
      'Three',
      'Four',
    ]);
  });

  it('goes with its task (404), while the feed keeps task.deleted with its last state', async () => {
    const member = { userId: workspace.member.id };
    const taskId = await insertTaskAs(api.db, member, projectId, 'Short-lived');
    await writeAs(api.db, member, 'delete from public.tasks where id = $1', [taskId]);

    expectProblem(await callActivity(api.app, workspace.owner.accessToken, taskId), 404, 'not_found');
    const deleted = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ types: 'task.deleted' }),
    );
    expect(
      deleted.data.map((event) => [
        event.task_id,
        event.data.object,
        (event.data as { title?: string }).title,
      ]),
    ).toEqual([[taskId, 'task', 'Short-lived']]);
  });

  it('answers 404 to an id that is not a UUID, and 400 to a bad cursor or an unknown parameter', async () => {
    const taskId = await insertTaskAs(api.db, { userId: workspace.member.id }, projectId);
    expectProblem(await callActivity(api.app, workspace.owner.accessToken, 'ENG-1'), 404, 'not_found');
    expectProblem(
      await callActivity(api.app, workspace.owner.accessToken, taskId, '?cursor=nope!'),
      400,
      'bad_request',
    );
    expectProblem(
      await callActivity(api.app, workspace.owner.accessToken, taskId, '?types=task.*'),
      400,
      'bad_request',
    );
  });
});

describe('who acted, and what an event never holds', () => {
  it('records the API token a change was made through', async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const created = await meCalls(api.app).createToken(workspace.member.accessToken, {
      name: 'CI',
      scope: 'write',
    });
    expect(created.status).toBe(201);
    const token = created.body;
    const label = await createLabel(token.token, workspace, 'from CI');
    await createLabel(workspace.member.accessToken, workspace, 'by hand');

    const labels = await readFeed(api.app, token.token, workspace, query({ types: 'label.created' }));
    expect(labels.data.map((event) => [idOf(event) === label.id, event.actor])).toEqual([
      [true, { type: 'api_token', user_id: workspace.member.id, api_token_id: token.id }],
      [false, { type: 'user', user_id: workspace.member.id, api_token_id: null }],
    ]);
  });

  it('tells of members by name and role, never by e-mail address', async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const demoted = await memberCalls(api.app, workspace).update(
      workspace.admin.accessToken,
      workspace.member.id,
      { role: 'viewer' },
      { 'Content-Type': 'application/json' },
    );
    expect(demoted.status, demoted.text).toBe(200);
    const removed = await memberCalls(api.app, workspace).remove(
      workspace.admin.accessToken,
      workspace.member.id,
    );
    expect(removed.status, removed.text).toBe(204);

    const feed = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ types: 'member.*' }),
    );
    const aboutMember = feed.data.filter(
      (event) => (event.data as { user_id?: string }).user_id === workspace.member.id,
    );
    expect(aboutMember.map((event) => [event.type, event.actor.user_id, event.previous_attributes])).toEqual([
      ['member.added', null, null],
      ['member.updated', workspace.admin.id, { role: 'member' }],
      ['member.removed', workspace.admin.id, null],
    ]);
    expect(aboutMember[1]?.data).toMatchObject({ object: 'member', role: 'viewer', display_name: 'member' });

    const text = JSON.stringify(await readToTheEnd(workspace.owner.accessToken, workspace, ''));
    for (const person of [workspace.owner, workspace.admin, workspace.member, workspace.viewer]) {
      expect(text).not.toContain(person.email);
    }
  });

  it('tells of labels: created, changed (with the old values), deleted', async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const label = await createLabel(workspace.member.accessToken, workspace, 'bug', '#d73a4a');
    const labels = labelCalls(api.app, workspace);
    const changed = await labels.update(workspace.admin.accessToken, label.id, {
      name: 'defect',
      color: '#0e8a16',
    });
    expect(changed.status).toBe(200);
    const deleted = await labels.remove(workspace.admin.accessToken, label.id);
    expect(deleted.status).toBe(204);

    const feed = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      query({ types: 'label.*' }),
    );
    expect(
      feed.data.map((event) => [event.type, event.actor.user_id, event.data, event.previous_attributes]),
    ).toEqual([
      ['label.created', workspace.member.id, label, null],
      ['label.updated', workspace.admin.id, changed.body, { name: 'bug', color: '#d73a4a' }],
      ['label.deleted', workspace.admin.id, changed.body, null],
    ]);
  });
});

describe('retention', () => {
  it('answers a cursor older than the oldest event kept from the oldest kept, without an error', async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const early = await readFeed(api.app, workspace.owner.accessToken, workspace, query({ limit: 1 }));
    expect(early.data.map((event) => event.seq)).toEqual([1]);
    for (const name of ['one', 'two']) await createLabel(workspace.owner.accessToken, workspace, name);

    // Events 1–4 (the members) are 31 days old: the scheduled housekeeping deletes them.
    await asService(api.db, async (sql) => {
      await sql.query(
        `update public.events set created_at = now() - interval '31 days' where workspace_id = $1 and seq <= 4`,
        [workspace.id],
      );
      await sql.query('select * from private.delete_expired_rows()');
    });

    const late = await readFeed(
      api.app,
      workspace.owner.accessToken,
      workspace,
      query({ after: early.next_cursor }),
    );
    expect(late.data.map((event) => [event.seq, event.type])).toEqual([
      [5, 'label.created'],
      [6, 'label.created'],
    ]);
    const fromTheStart = await readFeed(api.app, workspace.owner.accessToken, workspace);
    expect(fromTheStart.data.map((event) => event.seq)).toEqual([5, 6]);
  });
});
