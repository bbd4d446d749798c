import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { COMMENTS_PER_TASK } from '../../supabase/functions/_shared/limits.ts';
import { useTestApp } from '../support/api-app.ts';
import { expectProblem } from '../support/api-request.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import { aal2AccessTokenOf, type TestUser } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
  useTwoWorkspaces,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type Comment = components['schemas']['Comment'];

const api = useTestApp();

const commentsOf = (taskId: string) => `/api/v1/tasks/${taskId}/comments`;
const commentAt = (id: string) => `/api/v1/comments/${id}`;

const commentApi = () => commentCalls(api.app);

/** A project of the workspace and a task on it, inserted as the service. */
interface Task {
  workspace: WorkspaceFixture;
  projectId: string;
  projectKey: string;
  id: string;
}

async function taskIn(workspace: WorkspaceFixture): Promise<Task> {
  const projectKey = `P${randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase()}`;
  return asService(api.db, async (sql) => {
    const [project] = await sql.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, $2, 'Board', $3)
       returning id`,
      [workspace.id, projectKey, workspace.owner.id],
    );
    if (!project) throw new Error('insert into projects returned no row');
    const [task] = await sql.query<{ id: string }>(
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Fix the login', 'a0', $2)
       returning id`,
      [project.id, workspace.owner.id],
    );
    if (!task) throw new Error('insert into tasks returned no row');
    return { workspace, projectId: project.id, projectKey, id: task.id };
  });
}

async function archiveProjectOf(task: Task): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query('update public.projects set archived_at = now() where id = $1', [task.projectId]),
  );
}

interface StoredComment extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  author_id: string | null;
  body: string | null;
  edited_at: Date | null;
  deleted_at: Date | null;
  version: number;
}

/** The task's comments as the database holds them, oldest first. */
function storedComments(taskId: string): Promise<StoredComment[]> {
  return asService(api.db, (sql) =>
    sql.query<StoredComment>(
      `select id, workspace_id, author_id, body, edited_at, deleted_at, version from public.comments
       where task_id = $1 order by created_at, id`,
      [taskId],
    ),
  );
}

async function storedComment(id: string): Promise<StoredComment | undefined> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<StoredComment>(
      'select id, workspace_id, author_id, body, edited_at, deleted_at, version from public.comments where id = $1',
      [id],
    ),
  );
  return row;
}

interface StoredEvent extends Record<string, unknown> {
  type: string;
  project_id: string | null;
  task_id: string | null;
  actor_id: string | null;
  actor_api_token_id: string | null;
  data: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
}

/** The comment events of the task, in the order they were written. */
function commentEvents(taskId: string): Promise<StoredEvent[]> {
  return asService(api.db, (sql) =>
    sql.query<StoredEvent>(
      `select type, project_id, task_id, actor_id, actor_api_token_id, data, previous_attributes
       from public.events where task_id = $1 and type like 'comment.%' order by seq`,
      [taskId],
    ),
  );
}

/** What a refusal must leave as it was: the task's comments and their events. */
async function stateOf(taskId: string) {
  return { comments: await storedComments(taskId), events: await commentEvents(taskId) };
}

/** Comments inserted as the service, as if `author` had written them earlier. */
async function insertComments(task: Task, author: TestUser, count: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into public.comments (task_id, author_id, body)
       select $1, $2, 'filler ' || n from generate_series(1, $3) n`,
      [task.id, author.id, count],
    ),
  );
}

/** A comment `author` writes through the API. */
async function commentOn(task: Task, author: TestUser, body = `Comment ${randomUUID().slice(0, 8)}`) {
  const response = await commentApi().create(author.accessToken, task.id, { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const { acme, globex } = useTwoWorkspaces(api);
let task: Task;
beforeAll(async () => {
  task = await taskIn(acme);
});

describe('POST /api/v1/tasks/{id}/comments', () => {
  it('lets a member comment: 201, the comment at its Location, stored, and a comment.created event', async () => {
    const response = await commentApi().create(acme.member.accessToken, task.id, {
      body: '  Looks *good*  \n',
    });
    expect(response.status).toBe(201);
    const comment = response.body;
    expect(comment).toEqual({
      object: 'comment',
      id: expect.any(String),
      task_id: task.id,
      author_id: acme.member.id,
      body: 'Looks *good*',
      deleted: false,
      edited_at: null,
      deleted_at: null,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: comment.created_at,
    });
    expect(response.headers.get('ETag')).toBe('"1"');
    const location = response.headers.get('Location') ?? '';
    expect(location).toBe(`../../comments/${comment.id}`);
    const resolved = new URL(location, `http://api.test${commentsOf(task.id)}`).pathname;
    expect(resolved).toBe(commentAt(comment.id));
    expect((await commentApi().get(acme.viewer.accessToken, comment.id)).body).toEqual(comment);
    expect(await storedComment(comment.id)).toEqual({
      id: comment.id,
      workspace_id: acme.id,
      author_id: acme.member.id,
      body: 'Looks *good*',
      edited_at: null,
      deleted_at: null,
      version: 1,
    });
    const events = (await commentEvents(task.id)).filter((event) => event.data.id === comment.id);
    expect(events).toEqual([
      {
        type: 'comment.created',
        project_id: task.projectId,
        task_id: task.id,
        actor_id: acme.member.id,
        actor_api_token_id: null,
        data: comment,
        previous_attributes: null,
      },
    ]);
  });

  it('stores markdown as the text it is, never rendered or escaped', async () => {
    const markdown = '# Steps\n\n1. Open <script>alert("x")</script>\n2. `rm -rf` & **fail**';
    const comment = await commentOn(task, acme.member, markdown);
    expect(comment.body).toBe(markdown);
    expect((await storedComment(comment.id))?.body).toBe(markdown);
  });

  it.each(['owner', 'admin'] as const)('lets an %s comment', async (role) => {
    expect((await commentOn(task, acme[role])).author_id).toBe(acme[role].id);
  });

  it('refuses a viewer with 403 forbidden and writes nothing', async () => {
    const before = await stateOf(task.id);
    const problem = expectProblem(
      await commentApi().create(acme.viewer.accessToken, task.id, { body: 'Me too' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe(
      'Your role in this workspace (viewer) does not allow you to comment on tasks.',
    );
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('answers 404 to an outsider, to another workspace, for an unknown task and for a non-UUID id', async () => {
    const before = await stateOf(task.id);
    for (const user of [acme.outsider, globex.owner]) {
      expectProblem(await commentApi().create(user.accessToken, task.id, { body: 'Hi' }), 404, 'not_found');
    }
    expectProblem(
      await commentApi().create(acme.member.accessToken, randomUUID(), { body: 'Hi' }),
      404,
      'not_found',
    );
    expectProblem(
      await commentApi().create(acme.member.accessToken, 'ENG-1', { body: 'Hi' }),
      404,
      'not_found',
    );
    expect(await stateOf(task.id)).toEqual(before);
  });

  it.each([
    [{ body: '' }, 'body.body'],
    [{ body: ' \n\t ' }, 'body.body'],
    [{ body: 'x'.repeat(10_001) }, 'body.body'],
    [{ body: null }, 'body.body'],
    [{ body: 42 }, 'body.body'],
    [{}, 'body.body'],
    [{ body: 'Hi', author_id: randomUUID() }, 'body.author_id'],
  ])('refuses %j with 422 naming %s', async (body, path) => {
    const before = await stateOf(task.id);
    const problem = expectProblem(
      await commentApi().raw.create(acme.member.accessToken, task.id, body),
      422,
      'validation_failed',
    );
    expect(new Set(problem.errors?.map((error) => error.path))).toEqual(new Set([path]));
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('accepts a body of 10,000 characters after trimming', async () => {
    const body = 'y'.repeat(10_000);
    expect((await commentOn(task, acme.member, `\n${body}  `)).body).toBe(body);
  });

  it('refuses a comment on a task of an archived project with 409 project_archived', async () => {
    const archived = await taskIn(acme);
    await archiveProjectOf(archived);
    const problem = expectProblem(
      await commentApi().create(acme.member.accessToken, archived.id, { body: 'Hi' }),
      409,
      'project_archived',
    );
    expect(problem.detail).toBe(
      `The project "${archived.projectKey}" is archived: unarchive it to change it.`,
    );
    expect(await stateOf(archived.id)).toEqual({ comments: [], events: [] });
  });

  it(`refuses the comment past ${COMMENTS_PER_TASK}, deleted ones included, with 409 limit_reached`, async () => {
    const full = await taskIn(acme);
    await insertComments(full, acme.member, COMMENTS_PER_TASK);
    const [first] = await storedComments(full.id);
    expect((await commentApi().remove(acme.member.accessToken, first?.id ?? '')).status).toBe(204);
    const before = await stateOf(full.id);
    const problem = expectProblem(
      await commentApi().create(acme.member.accessToken, full.id, { body: 'One more' }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toContain('(comments_per_task)');
    expect(await stateOf(full.id)).toEqual(before);
    expect(before.comments).toHaveLength(COMMENTS_PER_TASK);
  });

  it('counts under the task lock: a comment waits for one still being written, then finds no room', async () => {
    const nearlyFull = await taskIn(acme);
    await insertComments(nearlyFull, acme.member, COMMENTS_PER_TASK - 1);
    let written = (): void => undefined;
    let commit = (): void => undefined;
    const isWritten = new Promise<void>((resolve) => (written = resolve));
    const canCommit = new Promise<void>((resolve) => (commit = resolve));
    // The last place, taken by a transaction that has not committed yet.
    const first = asService(api.db, async (sql) => {
      await sql.query(`insert into public.comments (task_id, author_id, body) values ($1, $2, 'Last')`, [
        nearlyFull.id,
        acme.admin.id,
      ]);
      written();
      await canCommit;
    });
    await isWritten;
    let answered = false;
    const second = commentApi()
      .create(acme.member.accessToken, nearlyFull.id, { body: 'Too late' })
      .finally(() => {
        answered = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered, 'the second comment waits for the task row').toBe(false);
    commit();
    await first;
    expectProblem(await second, 409, 'limit_reached');
    expect(await storedComments(nearlyFull.id)).toHaveLength(COMMENTS_PER_TASK);
  });

  it('answers aal1 sessions 403 mfa_required in a workspace that requires MFA, and lets aal2 in', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictTask = await taskIn(strict);
    expectProblem(
      await commentApi().create(strict.member.accessToken, strictTask.id, { body: 'Hi' }),
      403,
      'mfa_required',
    );
    expect(await storedComments(strictTask.id)).toEqual([]);
    const aal2 = await aal2AccessTokenOf(strict.member);
    expect((await commentApi().create(aal2, strictTask.id, { body: 'Hi' })).status).toBe(201);
  });

  it('refuses a read token with 403 insufficient_scope; a write token comments, and the event names it', async () => {
    const tokenTask = await taskIn(acme);
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(
      await commentApi().create(readToken, tokenTask.id, { body: 'Hi' }),
      403,
      'insufficient_scope',
    );
    expect(await stateOf(tokenTask.id)).toEqual({ comments: [], events: [] });
    const writeToken = await createApiTokenFor(api.app, acme.member, 'write');
    const comment = (await commentApi().create(writeToken, tokenTask.id, { body: 'From CI' })).body;
    expect(comment.author_id).toBe(acme.member.id);
    const [tokenRow] = await asService(api.db, (sql) =>
      sql.query<{ id: string }>(
        `select id from public.api_tokens where user_id = $1 and scope = 'write' order by created_at desc limit 1`,
        [acme.member.id],
      ),
    );
    expect(await commentEvents(tokenTask.id)).toEqual([
      expect.objectContaining({
        type: 'comment.created',
        actor_id: acme.member.id,
        actor_api_token_id: tokenRow?.id,
      }),
    ]);
  });

  it('comments once for a retried request with the same Idempotency-Key', async () => {
    const retried = await taskIn(acme);
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await commentApi().create(acme.member.accessToken, retried.id, { body: 'Once' }, headers);
    const again = await commentApi().create(acme.member.accessToken, retried.id, { body: 'Once' }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await storedComments(retried.id)).toHaveLength(1);
    expect(await commentEvents(retried.id)).toHaveLength(1);
  });
});

describe('GET /api/v1/tasks/{id}/comments', () => {
  let thread: Task;
  let comments: Comment[];
  beforeAll(async () => {
    thread = await taskIn(acme);
    comments = [];
    for (const [author, body] of [
      [acme.member, 'first'],
      [acme.admin, 'second'],
      [acme.owner, 'third'],
      [acme.member, 'fourth'],
      [acme.admin, 'fifth'],
    ] as const) {
      comments.push(await commentOn(thread, author, body));
    }
    expect((await commentApi().remove(acme.admin.accessToken, comments[1]?.id ?? '')).status).toBe(204);
  });

  it('lists the comments oldest first to any member, a deleted one in its place without its body', async () => {
    for (const user of [acme.owner, acme.admin, acme.member, acme.viewer]) {
      const response = await commentApi().list(user.accessToken, thread.id);
      expect(response.status).toBe(200);
      const list = response.body;
      expect(list.data.map((comment) => comment.body)).toEqual(['first', null, 'third', 'fourth', 'fifth']);
      expect(list.data[1]).toEqual({
        ...comments[1],
        body: null,
        deleted: true,
        deleted_at: expect.stringMatching(ISO_TIMESTAMP),
        version: 2,
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(list.data[0]).toEqual(comments[0]);
      expect(list.next_cursor).toBeNull();
      expect(response.headers.get('Link')).toBeNull();
    }
  });

  it('walks every comment once, two at a time, following Link', async () => {
    const seen: (string | null)[] = [];
    let query = '?limit=2';
    for (let pages = 0; pages < 10; pages += 1) {
      const response = await commentApi().list(acme.viewer.accessToken, thread.id, query);
      const page = response.body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((comment) => comment.body));
      if (!page.next_cursor) break;
      const link = response.headers.get('Link');
      expect(link).toBe(`<?limit=2&cursor=${page.next_cursor}>; rel="next"`);
      query = link?.slice(1, link.indexOf('>')) ?? '';
    }
    expect(seen).toEqual(['first', null, 'third', 'fourth', 'fifth']);
  });

  it('answers an empty list for a task nobody commented on', async () => {
    const quiet = await taskIn(acme);
    expect((await commentApi().list(acme.viewer.accessToken, quiet.id)).body).toEqual({
      object: 'list',
      data: [],
      next_cursor: null,
    });
  });

  it('refuses a cursor that does not fit this list, and a query parameter it does not take, with 400', async () => {
    expectProblem(
      await commentApi().list(acme.viewer.accessToken, thread.id, '?cursor=WzEsMl0'),
      400,
      'bad_request',
    );
    expectProblem(
      await commentApi().list(acme.viewer.accessToken, thread.id, '?limit=0'),
      400,
      'bad_request',
    );
    expectProblem(
      await commentApi().list(acme.viewer.accessToken, thread.id, '?author=me'),
      400,
      'bad_request',
    );
  });

  it('answers 404 to an outsider, to another workspace and for an unknown or non-UUID id', async () => {
    expectProblem(await commentApi().list(acme.outsider.accessToken, thread.id), 404, 'not_found');
    expectProblem(await commentApi().list(globex.owner.accessToken, thread.id), 404, 'not_found');
    expectProblem(await commentApi().list(acme.owner.accessToken, randomUUID()), 404, 'not_found');
    expectProblem(await commentApi().list(acme.owner.accessToken, 'nope'), 404, 'not_found');
  });

  it('answers aal1 403 mfa_required in a workspace that requires MFA', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictTask = await taskIn(strict);
    expectProblem(await commentApi().list(strict.viewer.accessToken, strictTask.id), 403, 'mfa_required');
    expect((await commentApi().list(await aal2AccessTokenOf(strict.viewer), strictTask.id)).status).toBe(200);
  });
});

describe('GET /api/v1/comments/{id}', () => {
  it('answers any member the comment with its ETag, and 304 while it is unchanged', async () => {
    const comment = await commentOn(task, acme.member);
    const response = await commentApi().get(acme.viewer.accessToken, comment.id);
    expect(response.body).toEqual(comment);
    expect(response.headers.get('ETag')).toBe('"1"');
    const notModified = await commentApi().get(acme.viewer.accessToken, comment.id, {
      'If-None-Match': '"1"',
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
  });

  it('answers 404 for an unknown id, a non-UUID id, an outsider and another workspace', async () => {
    const comment = await commentOn(task, acme.member);
    expectProblem(await commentApi().get(acme.admin.accessToken, randomUUID()), 404, 'not_found');
    expectProblem(await commentApi().get(acme.admin.accessToken, 'not-a-uuid'), 404, 'not_found');
    expectProblem(await commentApi().get(acme.outsider.accessToken, comment.id), 404, 'not_found');
    expectProblem(await commentApi().get(globex.owner.accessToken, comment.id), 404, 'not_found');
  });

  it('answers aal1 403 mfa_required in a workspace that requires MFA', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictTask = await taskIn(strict);
    await insertComments(strictTask, strict.member, 1);
    const [stored] = await storedComments(strictTask.id);
    expectProblem(await commentApi().get(strict.viewer.accessToken, stored?.id ?? ''), 403, 'mfa_required');
    expect((await commentApi().get(await aal2AccessTokenOf(strict.viewer), stored?.id ?? '')).status).toBe(
      200,
    );
  });

  it('answers 404 once the task is deleted, its comments with it', async () => {
    const doomed = await taskIn(acme);
    const comment = await commentOn(doomed, acme.member);
    await asService(api.db, (sql) => sql.query('delete from public.tasks where id = $1', [doomed.id]));
    expectProblem(await commentApi().get(acme.member.accessToken, comment.id), 404, 'not_found');
    expect(await storedComment(comment.id)).toBeUndefined();
  });
});

describe('PATCH /api/v1/comments/{id}', () => {
  it('lets the author edit the body: edited_at set, version bumped, a comment.updated event', async () => {
    const comment = await commentOn(task, acme.member, 'Befor');
    const response = await commentApi().update(acme.member.accessToken, comment.id, { body: ' Before ' });
    expect(response.status).toBe(200);
    const edited = response.body;
    expect(edited).toEqual({
      ...comment,
      body: 'Before',
      edited_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 2,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(edited.edited_at).toBe(edited.updated_at);
    expect(response.headers.get('ETag')).toBe('"2"');
    expect(await storedComment(comment.id)).toMatchObject({ body: 'Before', version: 2 });
    const events = (await commentEvents(task.id)).filter((event) => event.data.id === comment.id);
    expect(events.map((event) => event.type)).toEqual(['comment.created', 'comment.updated']);
    expect(events[1]).toMatchObject({
      actor_id: acme.member.id,
      data: edited,
      previous_attributes: { body: 'Befor', edited_at: null },
    });
  });

  it.each(['owner', 'admin', 'viewer'] as const)(
    "refuses the %s another's comment with 403 forbidden",
    async (role) => {
      const comment = await commentOn(task, acme.member);
      const before = await stateOf(task.id);
      const problem = expectProblem(
        await commentApi().update(acme[role].accessToken, comment.id, { body: 'Reworded' }),
        403,
        'forbidden',
      );
      expect(problem.detail).toBe('Only its author may edit a comment.');
      expect(await stateOf(task.id)).toEqual(before);
    },
  );

  it('refuses an author who has become a viewer with 403 forbidden', async () => {
    const demoted = await taskIn(acme);
    await insertComments(demoted, acme.viewer, 1);
    const [written] = await storedComments(demoted.id);
    const before = await stateOf(demoted.id);
    const problem = expectProblem(
      await commentApi().update(acme.viewer.accessToken, written?.id ?? '', { body: 'Mine' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe('Your role in this workspace (viewer) does not allow you to edit comments.');
    expect(await stateOf(demoted.id)).toEqual(before);
  });

  it('answers 404 to an outsider, for an unknown id and for a non-UUID id', async () => {
    const comment = await commentOn(task, acme.member);
    const before = await stateOf(task.id);
    expectProblem(
      await commentApi().update(acme.outsider.accessToken, comment.id, { body: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await commentApi().update(acme.member.accessToken, randomUUID(), { body: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await commentApi().update(acme.member.accessToken, 'nope', { body: 'x' }),
      404,
      'not_found',
    );
    expect(await stateOf(task.id)).toEqual(before);
  });

  it.each([
    { body: null },
    { body: '' },
    { body: 'x'.repeat(10_001) },
    { deleted: true },
    { author_id: null },
  ])('refuses %j with 422 and changes nothing', async (body) => {
    const comment = await commentOn(task, acme.member);
    expectProblem(
      await commentApi().raw.update(acme.member.accessToken, comment.id, body),
      422,
      'validation_failed',
    );
    expect(await storedComment(comment.id)).toMatchObject({
      body: comment.body,
      version: 1,
      edited_at: null,
    });
  });

  it('answers {} with the comment unchanged', async () => {
    const comment = await commentOn(task, acme.member);
    expect((await commentApi().update(acme.member.accessToken, comment.id, {})).body).toEqual(comment);
    expect(await storedComment(comment.id)).toMatchObject({ version: 1, edited_at: null });
  });

  it('applies a change against the current If-Match and refuses a stale one with 412', async () => {
    const comment = await commentOn(task, acme.member);
    const stale = await commentApi().update(
      acme.member.accessToken,
      comment.id,
      { body: 'x' },
      { 'If-Match': '"2"' },
    );
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedComment(comment.id)).toMatchObject({ body: comment.body, version: 1 });
    const fresh = await commentApi().update(
      acme.member.accessToken,
      comment.id,
      { body: 'x' },
      { 'If-Match': '"1"' },
    );
    expect(fresh.body).toMatchObject({ body: 'x', version: 2 });
  });

  it('refuses to edit a deleted comment with 409 comment_deleted', async () => {
    const comment = await commentOn(task, acme.member);
    expect((await commentApi().remove(acme.member.accessToken, comment.id)).status).toBe(204);
    const before = await stateOf(task.id);
    for (const body of [{ body: 'Back' }, {}]) {
      const problem = expectProblem(
        await commentApi().update(acme.member.accessToken, comment.id, body),
        409,
        'comment_deleted',
      );
      expect(problem.detail).toBe('This comment was deleted; a deleted comment cannot be edited.');
    }
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('refuses an edit in an archived project with 409 project_archived', async () => {
    const archived = await taskIn(acme);
    const comment = await commentOn(archived, acme.member);
    await archiveProjectOf(archived);
    const before = await stateOf(archived.id);
    expectProblem(
      await commentApi().update(acme.member.accessToken, comment.id, { body: 'Late' }),
      409,
      'project_archived',
    );
    expect(await stateOf(archived.id)).toEqual(before);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const comment = await commentOn(task, acme.member);
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(await commentApi().update(readToken, comment.id, { body: 'x' }), 403, 'insufficient_scope');
    expect(await storedComment(comment.id)).toMatchObject({ body: comment.body, version: 1 });
  });
});

describe('DELETE /api/v1/comments/{id}', () => {
  it('lets the author delete: 204, the body gone from the comment and from its events', async () => {
    const secretive = await taskIn(acme);
    const comment = await commentOn(secretive, acme.member, 'the password is hunter2');
    const edited = (await commentApi().update(acme.member.accessToken, comment.id, { body: 'oops, hunter2' }))
      .body;
    const response = await commentApi().remove(acme.member.accessToken, comment.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const deleted = (await commentApi().get(acme.viewer.accessToken, comment.id)).body;
    expect(deleted).toEqual({
      ...edited,
      body: null,
      deleted: true,
      deleted_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 3,
      updated_at: deleted.deleted_at,
    });
    expect(await storedComment(comment.id)).toMatchObject({
      body: null,
      version: 3,
      author_id: acme.member.id,
    });
    const events = await commentEvents(secretive.id);
    expect(events.map((event) => event.type)).toEqual([
      'comment.created',
      'comment.updated',
      'comment.deleted',
    ]);
    expect(events[2]).toMatchObject({ actor_id: acme.member.id, data: deleted, previous_attributes: null });
    expect(events[0]?.data).toEqual({ ...comment, body: null });
    expect(events[1]?.data).toEqual({ ...edited, body: null });
    expect(events[1]?.previous_attributes).toEqual({ edited_at: null });
    expect(JSON.stringify(events)).not.toContain('hunter2');
  });

  it.each(['owner', 'admin'] as const)("lets an %s delete a member's comment", async (role) => {
    const comment = await commentOn(task, acme.member);
    expect((await commentApi().remove(acme[role].accessToken, comment.id)).status).toBe(204);
    expect(await storedComment(comment.id)).toMatchObject({ body: null, deleted_at: expect.any(Date) });
    const [deletion] = (await commentEvents(task.id)).filter(
      (event) => event.data.id === comment.id && event.type === 'comment.deleted',
    );
    expect(deletion?.actor_id).toBe(acme[role].id);
  });

  it.each([
    ['member', "delete others' comments"],
    ['viewer', "delete others' comments"],
  ] as const)("refuses a %s another's comment with 403 forbidden", async (role, action) => {
    const comment = await commentOn(task, acme.admin);
    const before = await stateOf(task.id);
    const problem = expectProblem(
      await commentApi().remove(acme[role].accessToken, comment.id),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe(`Your role in this workspace (${role}) does not allow you to ${action}.`);
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('refuses an author who has become a viewer with 403 forbidden', async () => {
    const demoted = await taskIn(acme);
    await insertComments(demoted, acme.viewer, 1);
    const [written] = await storedComments(demoted.id);
    const before = await stateOf(demoted.id);
    expectProblem(await commentApi().remove(acme.viewer.accessToken, written?.id ?? ''), 403, 'forbidden');
    expect(await stateOf(demoted.id)).toEqual(before);
  });

  it('answers a second delete 204 again, changing nothing', async () => {
    const comment = await commentOn(task, acme.member);
    expect((await commentApi().remove(acme.member.accessToken, comment.id)).status).toBe(204);
    const before = await stateOf(task.id);
    expect((await commentApi().remove(acme.member.accessToken, comment.id)).status).toBe(204);
    expect((await commentApi().remove(acme.admin.accessToken, comment.id)).status).toBe(204);
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('answers 404 to an outsider, to another workspace and for an unknown or non-UUID id', async () => {
    const comment = await commentOn(task, acme.member);
    const before = await stateOf(task.id);
    expectProblem(await commentApi().remove(acme.outsider.accessToken, comment.id), 404, 'not_found');
    expectProblem(await commentApi().remove(globex.owner.accessToken, comment.id), 404, 'not_found');
    expectProblem(await commentApi().remove(acme.owner.accessToken, randomUUID()), 404, 'not_found');
    expectProblem(await commentApi().remove(acme.owner.accessToken, 'nope'), 404, 'not_found');
    expect(await stateOf(task.id)).toEqual(before);
  });

  it('refuses a stale If-Match with 412 and deletes with the current one', async () => {
    const comment = await commentOn(task, acme.member);
    const stale = await commentApi().remove(acme.member.accessToken, comment.id, { 'If-Match': '"2"' });
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedComment(comment.id)).toMatchObject({ body: comment.body, deleted_at: null });
    const fresh = await commentApi().remove(acme.member.accessToken, comment.id, { 'If-Match': '"1"' });
    expect(fresh.status).toBe(204);
    expect(await storedComment(comment.id)).toMatchObject({ body: null, version: 2 });
  });

  it('refuses a deletion in an archived project with 409 project_archived', async () => {
    const archived = await taskIn(acme);
    const comment = await commentOn(archived, acme.member);
    await archiveProjectOf(archived);
    const before = await stateOf(archived.id);
    expectProblem(await commentApi().remove(acme.admin.accessToken, comment.id), 409, 'project_archived');
    expect(await stateOf(archived.id)).toEqual(before);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const comment = await commentOn(task, acme.member);
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(await commentApi().remove(readToken, comment.id), 403, 'insufficient_scope');
    expect(await storedComment(comment.id)).toMatchObject({ body: comment.body, deleted_at: null });
  });

  it('answers aal1 403 mfa_required in a workspace that requires MFA', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const strictTask = await taskIn(strict);
    await insertComments(strictTask, strict.member, 1);
    const [written] = await storedComments(strictTask.id);
    expectProblem(
      await commentApi().remove(strict.admin.accessToken, written?.id ?? ''),
      403,
      'mfa_required',
    );
    expect(await storedComment(written?.id ?? '')).toMatchObject({ deleted_at: null });
  });
});
