import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LABELS_PER_TASK, TASKS_PER_PROJECT } from '../../supabase/functions/_shared/limits.ts';
import type { TypedResponse } from '../support/api-client.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { ISO_TIMESTAMP, jsonRequest, labelCalls } from '../support/resource-calls.ts';
import {
  archive,
  eventsOfTask,
  labelIn,
  projectIn,
  storedTask,
  storedTasks,
  taskIn,
  tasksPathOf,
  type Project,
  type Task,
  type TaskList,
  type UpdateTask,
} from '../support/task-calls.ts';
import { aal2AccessTokenOf, withBearer } from '../support/test-users.ts';
import { createApiTokenFor, createWorkspaceWithRoles } from '../support/workspace-fixture.ts';
import { useTaskTestApp } from '../support/task-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const { api, tasks, acme, globex } = useTaskTestApp();
let board: Project;
beforeAll(async () => {
  board = await projectIn(api.app, acme);
});

describe('POST /api/v1/workspaces/{slug}/projects/{key}/tasks', () => {
  it('lets a member create a task, answered in the API shape with its address and ETag', async () => {
    const project = await projectIn(api.app, acme);
    const response = await tasks().create(acme.member.accessToken, acme, project.key, {
      title: '  Ship the billing page  ',
    });
    expect(response.status).toBe(201);
    const task = response.body;
    expect(task).toEqual({
      object: 'task',
      id: expect.any(String),
      project_id: project.id,
      key: `${project.key}-1`,
      number: 1,
      title: 'Ship the billing page',
      description: '',
      status: 'todo',
      priority: 'none',
      assignee_id: null,
      due_date: null,
      position: expect.stringMatching(/^[0-9A-Za-z]+$/),
      label_ids: [],
      checklist: { done: 0, total: 0 },
      created_by: acme.member.id,
      completed_at: null,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: task.created_at,
    });
    expect(response.headers.get('ETag')).toBe('"1"');
    const location = response.headers.get('Location') ?? '';
    const resolved = new URL(location, `http://api.test${tasksPathOf(acme, project.key)}`);
    expect(resolved.pathname).toBe(`/api/v1/tasks/${task.id}`);
    expect((await tasks().get(acme.viewer.accessToken, task.id)).body).toEqual(task);
    expect(await storedTask(api.db, task.id)).toMatchObject({ number: 1, title: 'Ship the billing page' });
  });

  it('takes every field, and a task created done is completed', async () => {
    const label = await labelIn(api.app, acme);
    const task = await taskIn(api.app, acme, board.key, {
      title: 'All of it',
      description: '# Heading\n\n- [ ] a box',
      status: 'done',
      priority: 'urgent',
      assignee_id: acme.admin.id,
      due_date: '2028-02-29',
      label_ids: [label],
    });
    expect(task).toMatchObject({
      description: '# Heading\n\n- [ ] a box',
      status: 'done',
      priority: 'urgent',
      assignee_id: acme.admin.id,
      due_date: '2028-02-29',
      label_ids: [label],
      checklist: { done: 0, total: 1 },
      completed_at: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('counts the checklist in the description, as GitHub reads task lists, on every write', async () => {
    const description = [
      '- [x] write the copy',
      '- [ ] review it',
      '  * [X] nested, ticked',
      '1. [ ] numbered',
      '2) [x] numbered too',
      '+ [ ] plus',
      '- [] not an item',
      '- [y] not an item either',
      '[x] not in a list',
      'text - [x] mid-line',
    ].join('\n');
    const task = await taskIn(api.app, acme, board.key, { title: 'Checklist', description });
    expect(task.checklist).toEqual({ done: 3, total: 6 });
    const ticked = await tasks().update(
      acme.member.accessToken,
      task.id,
      { description: description.replace('- [ ] review it', '- [x] review it') },
      { 'If-Match': `"${task.version}"` },
    );
    expect(ticked.status).toBe(200);
    expect(ticked.body.checklist).toEqual({ done: 4, total: 6 });
    const cleared = await tasks().update(acme.member.accessToken, task.id, { description: '' });
    expect(cleared.body.checklist).toEqual({ done: 0, total: 0 });
    const listed = await tasks().list(acme.viewer.accessToken, acme, board.key);
    expect(listed.body.data.find((t) => t.id === task.id)?.checklist).toEqual({
      done: 0,
      total: 0,
    });
  });

  it('appends a task.created event with the task as its data, naming who acted', async () => {
    const task = await taskIn(api.app, acme, board.key, { title: 'Logged' });
    expect(await eventsOfTask(api.db, task.id)).toEqual([
      {
        type: 'task.created',
        actor_id: acme.member.id,
        actor_api_token_id: null,
        data: task,
        previous_attributes: null,
      },
    ]);
  });

  it('puts each new task at the end of its column', async () => {
    const project = await projectIn(api.app, acme);
    const made: Task[] = [];
    for (const title of ['one', 'two', 'three'])
      made.push(await taskIn(api.app, acme, project.key, { title }));
    const positions = made.map((task) => task.position);
    expect([...positions].sort()).toEqual(positions);
    expect(new Set(positions).size).toBe(3);
    const listed = (await tasks().list(acme.viewer.accessToken, acme, project.key)).body;
    expect(listed.data.map((task) => task.title)).toEqual(['one', 'two', 'three']);
  });

  it('numbers 20 concurrent creations 1 to 20, without gaps or duplicates, each in its own place', async () => {
    const project = await projectIn(api.app, acme);
    const people = [acme.owner, acme.admin, acme.member];
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        tasks().create(people[index % people.length]?.accessToken ?? '', acme, project.key, {
          title: `Concurrent ${index}`,
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const numbers = responses.map((response) => response.body.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const stored = await storedTasks(api.db, project.id);
    expect(stored.map((task) => task.number)).toEqual(numbers);
    expect(new Set(stored.map((task) => task.position)).size).toBe(20);
  });

  it('refuses a viewer with 403 forbidden and creates nothing', async () => {
    const project = await projectIn(api.app, acme);
    const problem = expectProblem(
      await tasks().create(acme.viewer.accessToken, acme, project.key, { title: 'Nope' }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe('Your role in this workspace (viewer) does not allow you to create tasks.');
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });

  it('answers 404 to outsiders, to other workspaces, and for projects that are not there', async () => {
    const project = await projectIn(api.app, acme);
    const body = { title: 'Nope' };
    expectProblem(await tasks().create(acme.outsider.accessToken, acme, project.key, body), 404, 'not_found');
    expectProblem(await tasks().create(globex.owner.accessToken, acme, project.key, body), 404, 'not_found');
    expectProblem(
      await tasks().create(globex.owner.accessToken, globex, project.key, body),
      404,
      'not_found',
    );
    for (const key of ['NOPE', project.key.toLowerCase(), 'NOT-A-KEY']) {
      expectProblem(await tasks().create(acme.owner.accessToken, acme, key, body), 404, 'not_found');
    }
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });

  const tooMany = Array.from({ length: LABELS_PER_TASK + 1 }, () => randomUUID());
  const twice = randomUUID();
  it.each([
    [{ title: '   ' }, 'body.title'],
    [{ title: 'x'.repeat(201) }, 'body.title'],
    [{ title: null }, 'body.title'],
    [{}, 'body.title'],
    [{ title: 'T', description: 'x'.repeat(20_001) }, 'body.description'],
    [{ title: 'T', description: null }, 'body.description'],
    [{ title: 'T', status: 'doing' }, 'body.status'],
    [{ title: 'T', priority: 'p1' }, 'body.priority'],
    [{ title: 'T', assignee_id: 'bob' }, 'body.assignee_id'],
    [{ title: 'T', due_date: '2026-02-30' }, 'body.due_date'],
    [{ title: 'T', due_date: '2026-1-1' }, 'body.due_date'],
    [{ title: 'T', due_date: '0000-01-01' }, 'body.due_date'],
    [{ title: 'T', label_ids: tooMany }, 'body.label_ids'],
    [{ title: 'T', label_ids: [twice, twice] }, 'body.label_ids'],
    [{ title: 'T', label_ids: ['bug'] }, 'body.label_ids.0'],
    [{ title: 'T', label_ids: null }, 'body.label_ids'],
    [{ title: 'T', position: 'a0' }, 'body.position'],
    [{ title: 'T', number: 7 }, 'body.number'],
  ])('refuses %j with 422 naming %s', async (body, path) => {
    const project = await projectIn(api.app, acme);
    const problem = expectProblem(
      await tasks().raw.create(acme.member.accessToken, acme, project.key, body),
      422,
      'validation_failed',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });

  it('refuses assignees who are viewers or no members, and labels of other workspaces, with 422', async () => {
    const project = await projectIn(api.app, acme);
    const foreignLabel = await labelIn(api.app, globex);
    const cases: [Record<string, unknown>, string][] = [
      [{ assignee_id: acme.viewer.id }, 'body.assignee_id'],
      [{ assignee_id: acme.outsider.id }, 'body.assignee_id'],
      [{ assignee_id: randomUUID() }, 'body.assignee_id'],
      [{ label_ids: [foreignLabel] }, 'body.label_ids'],
      [{ label_ids: [await labelIn(api.app, acme), randomUUID()] }, 'body.label_ids'],
    ];
    for (const [fields, path] of cases) {
      const problem = expectProblem(
        await tasks().create(acme.member.accessToken, acme, project.key, { title: 'T', ...fields }),
        422,
        'validation_failed',
      );
      expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    }
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });

  it('refuses tasks in an archived project with 409 project_archived', async () => {
    const project = await projectIn(api.app, acme);
    await archive(api.app, acme, project.key);
    const problem = expectProblem(
      await tasks().create(acme.owner.accessToken, acme, project.key, { title: 'Late' }),
      409,
      'project_archived',
    );
    expect(problem.detail).toBe(`The project "${project.key}" is archived: unarchive it to change it.`);
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });

  it(`refuses the task past ${TASKS_PER_PROJECT} with 409 limit_reached`, async () => {
    const project = await projectIn(api.app, acme);
    // As if made earlier: rows written directly, the triggers (numbering, counting, events) set aside,
    // and the project's number and count set to match.
    await asService(api.db, async (sql) => {
      await sql.query(`set local session_replication_role = replica`);
      await sql.query(
        `insert into public.tasks (workspace_id, project_id, number, title, status, position, created_by)
         select $1, $2, n, 'Filler ' || n, 'backlog', 'f' || lpad(n::text, 5, '0'), $3
         from generate_series(1, $4::integer) n`,
        [acme.id, project.id, acme.admin.id, TASKS_PER_PROJECT - 1],
      );
      await sql.query('update public.projects set next_task_number = $2, task_count = $2 - 1 where id = $1', [
        project.id,
        TASKS_PER_PROJECT,
      ]);
    });
    const last = await tasks().create(acme.member.accessToken, acme, project.key, { title: 'The last' });
    expect(last.body.number).toBe(TASKS_PER_PROJECT);
    const problem = expectProblem(
      await tasks().create(acme.member.accessToken, acme, project.key, { title: 'One too many' }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toContain('(tasks_per_project)');
    const [count] = await asService(api.db, (sql) =>
      sql.query<{ count: number }>(
        'select count(*)::integer as count from public.tasks where project_id = $1',
        [project.id],
      ),
    );
    expect(count?.count).toBe(TASKS_PER_PROJECT);

    // A deleted task makes room for one more, and only one.
    expect((await tasks().remove(acme.member.accessToken, last.body.id)).status).toBe(204);
    const another = await tasks().create(acme.member.accessToken, acme, project.key, { title: 'Room again' });
    expect(another.body.number).toBe(TASKS_PER_PROJECT + 1);
    expectProblem(
      await tasks().create(acme.member.accessToken, acme, project.key, { title: 'Full again' }),
      409,
      'limit_reached',
    );
  });

  it('answers aal1 sessions 403 mfa_required where MFA is required, and lets aal2 in', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const project = await projectIn(api.app, strict, await aal2AccessTokenOf(strict.admin));
    expectProblem(
      await tasks().create(strict.member.accessToken, strict, project.key, { title: 'Nope' }),
      403,
      'mfa_required',
    );
    expect(await storedTasks(api.db, project.id)).toEqual([]);
    const response = await tasks().create(await aal2AccessTokenOf(strict.member), strict, project.key, {
      title: 'Yes',
    });
    expect(response.status).toBe(201);
  });

  it('refuses a read token with 403 insufficient_scope; a write token creates, and the event names it', async () => {
    const project = await projectIn(api.app, acme);
    const readToken = await createApiTokenFor(api.app, acme.member, 'read');
    expectProblem(
      await tasks().create(readToken, acme, project.key, { title: 'Nope' }),
      403,
      'insufficient_scope',
    );
    expect(await storedTasks(api.db, project.id)).toEqual([]);
    const writeToken = await createApiTokenFor(api.app, acme.member, 'write');
    const task = (await tasks().create(writeToken, acme, project.key, { title: 'From CI' })).body;
    const [event] = await eventsOfTask(api.db, task.id);
    expect(event).toMatchObject({ type: 'task.created', actor_id: acme.member.id });
    expect(event?.actor_api_token_id).toEqual(expect.any(String));
  });

  it('replays a retry with the same Idempotency-Key instead of creating twice', async () => {
    const project = await projectIn(api.app, acme);
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { title: 'Once' };
    const first = await tasks().create(acme.member.accessToken, acme, project.key, body, headers);
    const again = await tasks().create(acme.member.accessToken, acme, project.key, body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(again.body).toEqual(first.body);
    expect(await storedTasks(api.db, project.id)).toHaveLength(1);
  });

  it('takes no query parameters', async () => {
    const project = await projectIn(api.app, acme);
    const response = await callApi(
      api.app,
      `${tasksPathOf(acme, project.key)}?status=todo`,
      withBearer(acme.member.accessToken, jsonRequest('POST', { title: 'Nope' })),
    );
    expectProblem(response, 400, 'bad_request');
    expect(await storedTasks(api.db, project.id)).toEqual([]);
  });
});

describe('GET /api/v1/workspaces/{slug}/projects/{key}/tasks', () => {
  let listed: Project;
  let all: Task[];
  let bug: string;
  let docs: string;
  const day = (offset: number) => new Date(Date.UTC(2027, 0, 10 + offset)).toISOString().slice(0, 10);
  beforeAll(async () => {
    listed = await projectIn(api.app, acme);
    bug = await labelIn(api.app, acme);
    docs = await labelIn(api.app, acme);
    const specs: Record<string, unknown>[] = [
      { title: 'Fix 100% of the login', status: 'todo', priority: 'high', assignee_id: acme.member.id },
      { title: 'Write docs', status: 'backlog', priority: 'low', due_date: day(3), label_ids: [docs] },
      {
        title: 'Review the_plan',
        status: 'in_review',
        priority: 'urgent',
        label_ids: [bug],
        due_date: day(1),
      },
      { title: 'Ship it', status: 'done', priority: 'medium', assignee_id: acme.admin.id, due_date: day(2) },
      {
        title: 'Plan',
        status: 'todo',
        priority: 'none',
        description: 'Talk about LOGIN flows',
        label_ids: [bug],
      },
      { title: 'Drop one plan', status: 'canceled', priority: 'high', assignee_id: acme.member.id },
      { title: 'Backlog 100 items', status: 'backlog', priority: 'urgent', due_date: day(1) },
    ];
    all = [];
    for (const spec of specs) all.push(await taskIn(api.app, acme, listed.key, spec));
  });

  const titles = (response: TypedResponse<TaskList>) => response.body.data.map((task) => task.title);
  const list = (query = '', bearer = acme.viewer.accessToken) =>
    tasks().list(bearer, acme, listed.key, query);

  it('lists the board in order, column by column, to any member', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(titles(response)).toEqual([
      'Write docs',
      'Backlog 100 items',
      'Fix 100% of the login',
      'Plan',
      'Review the_plan',
      'Ship it',
      'Drop one plan',
    ]);
    expect(response.body.next_cursor).toBeNull();
    expect(response.body.data[0]).toEqual(all[1]);
  });

  it.each([
    ['?status=todo', ['Fix 100% of the login', 'Plan']],
    ['?status=done,canceled', ['Ship it', 'Drop one plan']],
    ['?status=done&status=backlog', ['Write docs', 'Backlog 100 items', 'Ship it']],
    ['?priority=urgent', ['Backlog 100 items', 'Review the_plan']],
    ['?priority=high&priority=low', ['Write docs', 'Fix 100% of the login', 'Drop one plan']],
    ['?assignee=none', ['Write docs', 'Backlog 100 items', 'Plan', 'Review the_plan']],
    ['?label=LABEL', ['Plan', 'Review the_plan']],
    ['?q=login', ['Fix 100% of the login', 'Plan']],
    ['?q=100%25', ['Fix 100% of the login']],
    ['?q=e_p', ['Review the_plan']],
    ['?q=nothing-like-this', []],
    [`?due_before=${day(2)}`, ['Backlog 100 items', 'Review the_plan']],
    [`?due_after=${day(1)}`, ['Write docs', 'Ship it']],
    [`?due_after=${day(1)}&due_before=${day(3)}`, ['Ship it']],
    ['?status=todo&assignee=none', ['Plan']],
  ])('filters %s', async (query, expected) => {
    const response = await list(query.replace('LABEL', bug));
    expect(titles(response)).toEqual(expected);
  });

  it('filters on the caller with assignee=me, and on anyone by id', async () => {
    expect(titles(await list('?assignee=me', acme.member.accessToken))).toEqual([
      'Fix 100% of the login',
      'Drop one plan',
    ]);
    expect(titles(await list(`?assignee=${acme.admin.id}`))).toEqual(['Ship it']);
    expect(titles(await list('?assignee=me', acme.owner.accessToken))).toEqual([]);
  });

  it('takes several assignees and labels, comma-separated or repeated, keeping a task that matches any', async () => {
    const member = acme.member.accessToken;
    const unassignedOrMine = ['Write docs', 'Backlog 100 items', 'Fix 100% of the login', 'Plan'];
    expect(titles(await list('?assignee=me,none', member))).toEqual([
      ...unassignedOrMine,
      'Review the_plan',
      'Drop one plan',
    ]);
    expect(titles(await list(`?assignee=${acme.admin.id},${acme.member.id}`))).toEqual([
      'Fix 100% of the login',
      'Ship it',
      'Drop one plan',
    ]);
    expect(titles(await list(`?assignee=${acme.admin.id}&assignee=none&status=backlog,done`))).toEqual([
      'Write docs',
      'Backlog 100 items',
      'Ship it',
    ]);
    const anyLabel = ['Write docs', 'Plan', 'Review the_plan'];
    expect(titles(await list(`?label=${bug},${docs}`))).toEqual(anyLabel);
    expect(titles(await list(`?label=${docs}&label=${bug}`))).toEqual(anyLabel);
    expect(titles(await list(`?label=${docs}&assignee=none,me`, member))).toEqual(['Write docs']);
  });

  it('refuses more than 20 assignees or labels, and a bad one among good ones, with 400 listing nothing', async () => {
    const ids = Array.from({ length: 21 }, () => crypto.randomUUID());
    for (const [query, path] of [
      [`?assignee=${ids.join(',')}`, 'query.assignee'],
      [`?label=${ids.join(',')}`, 'query.label'],
      [`?label=${ids.slice(0, 20).join('&label=')}&label=${bug}`, 'query.label'],
      [`?assignee=me,bob`, 'query.assignee'],
      [`?assignee=${acme.admin.id}&assignee=bob`, 'query.assignee'],
      [`?label=${bug},bug`, 'query.label'],
    ]) {
      const response = await list(query);
      const problem = expectProblem(response, 400, 'bad_request');
      expect(problem.errors?.map((error) => error.path)).toEqual([path]);
      expect(response.body).not.toHaveProperty('data');
    }
    expect(titles(await list(`?label=${ids.slice(0, 19).join(',')},${docs}`))).toEqual(['Write docs']);
  });

  const rank = (task: Task) => ['none', 'low', 'medium', 'high', 'urgent'].indexOf(task.priority);
  // Postgres orders uuids as their 16 bytes, so as their lower-case text; dates as text too.
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const ORDERS: Record<string, (a: Task, b: Task) => number> = {
    priority: (a, b) => rank(a) - rank(b) || compare(a.id, b.id),
    '-priority': (a, b) => rank(b) - rank(a) || compare(b.id, a.id),
    due_date: (a, b) => compare(a.due_date ?? '~', b.due_date ?? '~') || compare(a.id, b.id),
    '-due_date': (a, b) => compare(b.due_date ?? '', a.due_date ?? '') || compare(b.id, a.id),
  };

  it.each(Object.keys(ORDERS))('sorts by %s, ties by id, tasks without a due date last', async (sort) => {
    const expected = [...all].sort(ORDERS[sort]).map((task) => task.id);
    expect((await list(`?sort=${sort}`)).body.data.map((task) => task.id)).toEqual(expected);
  });

  it('puts tasks without a due date last both ways', async () => {
    for (const sort of ['due_date', '-due_date']) {
      const dates = (await list(`?sort=${sort}`)).body.data.map((task) => task.due_date);
      expect(dates.slice(4)).toEqual([null, null, null]);
    }
  });

  it('sorts by created_at and updated_at, both ways', async () => {
    const byCreation = all.map((task) => task.title);
    expect(titles(await list('?sort=created_at'))).toEqual(byCreation);
    expect(titles(await list('?sort=-created_at'))).toEqual([...byCreation].reverse());
    const touched = all[2];
    if (!touched) throw new Error('no task to touch');
    expect(
      (await tasks().update(acme.member.accessToken, touched.id, { description: 'touched' })).status,
    ).toBe(200);
    const byUpdate = titles(await list('?sort=updated_at'));
    expect(byUpdate.at(-1)).toBe(touched.title);
    expect(titles(await list('?sort=-updated_at'))).toEqual([...byUpdate].reverse());
  });

  it.each(['position', 'priority', '-priority', 'due_date', '-due_date', 'created_at', '-updated_at'])(
    'walks every task once in the order of sort=%s, two at a time, following Link',
    async (sort) => {
      const whole = (await list(`?sort=${sort}`)).body.data.map((task) => task.id);
      const seen: string[] = [];
      let query = `?sort=${sort}&limit=2`;
      for (let pages = 0; pages < 10; pages += 1) {
        const response = await list(query);
        const page = response.body;
        seen.push(...page.data.map((task) => task.id));
        if (!page.next_cursor) break;
        const link = response.headers.get('Link') ?? '';
        expect(link).toBe(`<?sort=${sort}&limit=2&cursor=${page.next_cursor}>; rel="next"`);
        query = link.slice(1, link.indexOf('>'));
      }
      expect(seen).toEqual(whole);
    },
  );

  it('refuses a cursor issued for another sort, or not issued at all, with 400', async () => {
    const first = (await list('?sort=priority&limit=1')).body;
    const problem = expectProblem(
      await list(`?sort=created_at&cursor=${first.next_cursor ?? ''}`),
      400,
      'bad_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['query.cursor']);
    expect(problem.detail).toContain('sort=priority');
    expectProblem(await list(`?cursor=${first.next_cursor ?? ''}`), 400, 'bad_request');
    expectProblem(await list('?cursor=bm9wZQ'), 400, 'bad_request');
  });

  it.each([
    ['?status=doing', 'query.status'],
    ['?status=todo,', 'query.status'],
    ['?status=todo&status=doing', 'query.status'],
    ['?priority=p1', 'query.priority'],
    ['?assignee=bob', 'query.assignee'],
    ['?label=bug', 'query.label'],
    ['?q=', 'query.q'],
    [`?q=${'x'.repeat(201)}`, 'query.q'],
    ['?q=a%00b', 'query.q'],
    ['?due_before=2027-02-30', 'query.due_before'],
    ['?due_after=tomorrow', 'query.due_after'],
    ['?sort=title', 'query.sort'],
    ['?sort=-position', 'query.sort'],
    ['?limit=0', 'query.limit'],
    ['?assignee_id=me', 'query.assignee_id'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const problem = expectProblem(await list(query), 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });

  it('answers 404 to outsiders and for projects that are not there; lists archived projects', async () => {
    expectProblem(await list('', acme.outsider.accessToken), 404, 'not_found');
    expectProblem(await tasks().list(globex.owner.accessToken, globex, listed.key), 404, 'not_found');
    expectProblem(await tasks().list(acme.owner.accessToken, acme, 'NOPE'), 404, 'not_found');
    const archived = await projectIn(api.app, acme);
    const kept = await taskIn(api.app, acme, archived.key);
    await archive(api.app, acme, archived.key);
    expect((await tasks().list(acme.viewer.accessToken, acme, archived.key)).body.data).toEqual([kept]);
  });

  it('lets a read token list', async () => {
    const readToken = await createApiTokenFor(api.app, acme.viewer, 'read');
    expect(titles(await list('?status=todo', readToken))).toEqual(['Fix 100% of the login', 'Plan']);
  });
});

describe('GET /api/v1/tasks/{id} and /api/v1/workspaces/{slug}/tasks/{task_key}', () => {
  let task: Task;
  beforeAll(async () => {
    task = await taskIn(api.app, acme, board.key, { title: 'Readable' });
  });

  it('answers any member the task with its ETag, and 304 while it is unchanged', async () => {
    const response = await tasks().get(acme.viewer.accessToken, task.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(task);
    expect(response.headers.get('ETag')).toBe('"1"');
    const notModified = await tasks().get(acme.viewer.accessToken, task.id, { 'If-None-Match': '"1"' });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
  });

  it('answers the task by its key, pointing at its own address', async () => {
    const response = await tasks().getByKey(acme.member.accessToken, acme, task.key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(task);
    const base = `http://api.test${acme.path}/tasks/${task.key}`;
    expect(new URL(response.headers.get('Content-Location') ?? '', base).pathname).toBe(
      `/api/v1/tasks/${task.id}`,
    );
    const notModified = await tasks().getByKey(acme.member.accessToken, acme, task.key, {
      'If-None-Match': '"1"',
    });
    expect(notModified.status).toBe(304);
  });

  it('answers 404 to outsiders and other workspaces, never 403', async () => {
    expectProblem(await tasks().get(acme.outsider.accessToken, task.id), 404, 'not_found');
    expectProblem(await tasks().get(globex.owner.accessToken, task.id), 404, 'not_found');
    expectProblem(await tasks().getByKey(acme.outsider.accessToken, acme, task.key), 404, 'not_found');
    expectProblem(await tasks().getByKey(globex.owner.accessToken, globex, task.key), 404, 'not_found');
  });

  it('answers 404 for ids and keys that name nothing', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', `${task.id}x`]) {
      expectProblem(await tasks().get(acme.owner.accessToken, id), 404, 'not_found');
    }
    const [projectKey] = task.key.split('-');
    for (const key of [
      task.key.toLowerCase(),
      `${projectKey}-0`,
      `${projectKey}-01`,
      `${projectKey}-999`,
      `${projectKey}-99999999999`,
      `${projectKey}-2147483648`,
      `${projectKey}1`,
      'X-1',
      `${projectKey}--1`,
    ]) {
      expectProblem(await tasks().getByKey(acme.owner.accessToken, acme, key), 404, 'not_found');
    }
  });

  it('answers the same key in two workspaces by the workspace asked', async () => {
    const theirs = await projectIn(api.app, globex);
    const twin = await taskIn(api.app, globex, theirs.key);
    const ours = await taskIn(api.app, acme, board.key);
    expect((await tasks().getByKey(globex.viewer.accessToken, globex, twin.key)).body.id).toBe(twin.id);
    expect((await tasks().getByKey(acme.viewer.accessToken, acme, ours.key)).body.id).toBe(ours.id);
  });

  it('answers 403 mfa_required to aal1 sessions where MFA is required, by id and by key', async () => {
    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const project = await projectIn(api.app, strict, await aal2AccessTokenOf(strict.admin));
    const created = (
      await tasks().create(await aal2AccessTokenOf(strict.member), strict, project.key, { title: 'MFA' })
    ).body;
    expectProblem(await tasks().get(strict.viewer.accessToken, created.id), 403, 'mfa_required');
    expectProblem(
      await tasks().getByKey(strict.viewer.accessToken, strict, created.key),
      403,
      'mfa_required',
    );
    expect((await tasks().get(await aal2AccessTokenOf(strict.viewer), created.id)).status).toBe(200);
    // An outsider is still told nothing exists, rather than that MFA is required.
    expectProblem(await tasks().get(strict.outsider.accessToken, created.id), 404, 'not_found');
  });

  it('refuses a query parameter with 400', async () => {
    const response = await callApi(
      api.app,
      `/api/v1/tasks/${task.id}?expand=project`,
      withBearer(acme.owner.accessToken),
    );
    expectProblem(response, 400, 'bad_request');
  });
});

describe('PATCH /api/v1/tasks/{id}', () => {
  it('lets a member change fields, bumping the version, with a task.updated event', async () => {
    const label = await labelIn(api.app, acme);
    const task = await taskIn(api.app, acme, board.key, { title: 'Before', assignee_id: acme.member.id });
    const response = await tasks().update(acme.member.accessToken, task.id, {
      title: ' After ',
      description: 'More',
      priority: 'high',
      assignee_id: null,
      due_date: '2027-03-01',
      label_ids: [label],
    });
    expect(response.status).toBe(200);
    const updated = response.body;
    expect(updated).toEqual({
      ...task,
      title: 'After',
      description: 'More',
      priority: 'high',
      assignee_id: null,
      due_date: '2027-03-01',
      label_ids: [label],
      version: 2,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(response.headers.get('ETag')).toBe('"2"');
    const events = await eventsOfTask(api.db, task.id);
    expect(events.map((event) => event.type)).toEqual(['task.created', 'task.updated']);
    expect(events[1]?.data).toEqual(updated);
    expect(events[1]?.previous_attributes).toEqual({
      title: 'Before',
      description: '',
      priority: 'none',
      assignee_id: acme.member.id,
      due_date: null,
      label_ids: [],
    });
  });

  it('moves a task whose status changes to the end of its new column, and keeps completed_at in step', async () => {
    const project = await projectIn(api.app, acme);
    const done = await taskIn(api.app, acme, project.key, { title: 'Already done', status: 'done' });
    const task = await taskIn(api.app, acme, project.key, { title: 'Doing' });
    const finished = (await tasks().update(acme.member.accessToken, task.id, { status: 'done' })).body;
    expect(finished.status).toBe('done');
    expect(finished.completed_at).toEqual(expect.stringMatching(ISO_TIMESTAMP));
    expect(finished.position > done.position).toBe(true);
    const [, event] = await eventsOfTask(api.db, task.id);
    expect(event?.type).toBe('task.moved');
    const reopened = (await tasks().update(acme.member.accessToken, task.id, { status: 'todo' })).body;
    expect(reopened.completed_at).toBeNull();
    const unchanged = (
      await tasks().update(acme.member.accessToken, task.id, { status: 'todo', title: 'Again' })
    ).body;
    expect(unchanged.position).toBe(reopened.position);
    expect(titlesOf(await tasks().list(acme.member.accessToken, acme, project.key))).toEqual([
      'Again',
      'Already done',
    ]);
  });

  it('answers an empty patch with the task as it is, honouring If-Match', async () => {
    const task = await taskIn(api.app, acme, board.key);
    expect((await tasks().update(acme.member.accessToken, task.id, {})).body).toEqual(task);
    const problem = expectProblem(
      await tasks().update(acme.member.accessToken, task.id, {}, { 'If-Match': '"7"' }),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(1);
  });

  it('applies a change only to the version If-Match names, else 412 with the current version', async () => {
    const task = await taskIn(api.app, acme, board.key, { title: 'Versioned' });
    const stale = await tasks().update(
      acme.member.accessToken,
      task.id,
      { title: 'Stale' },
      { 'If-Match': '"2"' },
    );
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expect(await storedTask(api.db, task.id)).toMatchObject({ title: 'Versioned', version: 1 });
    const fresh = await tasks().update(
      acme.member.accessToken,
      task.id,
      { title: 'Fresh' },
      { 'If-Match': '"1"' },
    );
    expect(fresh.body).toMatchObject({ title: 'Fresh', version: 2 });
  });

  it.each([
    [{ title: '' }, 'body.title'],
    [{ title: null }, 'body.title'],
    [{ description: null }, 'body.description'],
    [{ label_ids: null }, 'body.label_ids'],
    [{ status: null }, 'body.status'],
    [{ priority: 'asap' }, 'body.priority'],
    [{ due_date: '2027-13-01' }, 'body.due_date'],
    [{ position: 'a0' }, 'body.position'],
    [{ key: 'ENG-1' }, 'body.key'],
    [{ version: 9 }, 'body.version'],
    [{ project_id: randomUUID() }, 'body.project_id'],
  ])('refuses %j with 422 naming %s, changing nothing', async (body, path) => {
    const task = await taskIn(api.app, acme, board.key);
    const problem = expectProblem(
      await tasks().raw.update(acme.member.accessToken, task.id, body),
      422,
      'validation_failed',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    expect(await storedTask(api.db, task.id)).toMatchObject({ version: 1 });
  });

  it('refuses a viewer assignee and a foreign label with 422', async () => {
    const task = await taskIn(api.app, acme, board.key);
    const foreign = await labelIn(api.app, globex);
    const cases: [UpdateTask, string][] = [
      [{ assignee_id: acme.viewer.id }, 'body.assignee_id'],
      [{ label_ids: [foreign] }, 'body.label_ids'],
    ];
    for (const [body, path] of cases) {
      const problem = expectProblem(
        await tasks().update(acme.member.accessToken, task.id, body),
        422,
        'validation_failed',
      );
      expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    }
    expect(await storedTask(api.db, task.id)).toMatchObject({ version: 1 });
  });

  it('refuses viewers (403), outsiders (404) and archived projects (409)', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    expectProblem(await tasks().update(acme.viewer.accessToken, task.id, { title: 'V' }), 403, 'forbidden');
    expectProblem(await tasks().update(acme.outsider.accessToken, task.id, { title: 'O' }), 404, 'not_found');
    await archive(api.app, acme, project.key);
    expectProblem(
      await tasks().update(acme.owner.accessToken, task.id, { title: 'A' }),
      409,
      'project_archived',
    );
    expectProblem(await tasks().update(acme.owner.accessToken, task.id, {}), 409, 'project_archived');
    expect(await storedTask(api.db, task.id)).toMatchObject({ title: 'A task', version: 1 });
  });

  it('takes application/merge-patch+json and refuses text/plain with 415', async () => {
    const task = await taskIn(api.app, acme, board.key);
    const path = `/api/v1/tasks/${task.id}`;
    const patch = (type: string) =>
      callApi(
        api.app,
        path,
        withBearer(acme.member.accessToken, {
          method: 'PATCH',
          headers: { 'Content-Type': type },
          body: JSON.stringify({ priority: 'low' }),
        }),
      );
    expect((await patch('application/merge-patch+json')).status).toBe(200);
    expectProblem(await patch('text/plain'), 415, 'unsupported_media_type');
  });
});

describe('DELETE /api/v1/tasks/{id}', () => {
  it('lets a member delete a task, with a task.deleted event; a second delete is 404', async () => {
    const task = await taskIn(api.app, acme, board.key);
    const response = await tasks().remove(acme.member.accessToken, task.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await storedTask(api.db, task.id)).toBeUndefined();
    const events = await eventsOfTask(api.db, task.id);
    expect(events.map((event) => event.type)).toEqual(['task.created', 'task.deleted']);
    expect(events[1]?.data).toEqual(task);
    expectProblem(await tasks().remove(acme.member.accessToken, task.id), 404, 'not_found');
  });

  it('never reuses a deleted task number', async () => {
    const project = await projectIn(api.app, acme);
    const first = await taskIn(api.app, acme, project.key);
    await tasks().remove(acme.member.accessToken, first.id);
    expect((await taskIn(api.app, acme, project.key)).number).toBe(2);
  });

  it('honours If-Match, and refuses viewers, outsiders and archived projects', async () => {
    const project = await projectIn(api.app, acme);
    const task = await taskIn(api.app, acme, project.key);
    const stale = await tasks().remove(acme.member.accessToken, task.id, { 'If-Match': '"5"' });
    expect(expectProblem(stale, 412, 'precondition_failed').current_version).toBe(1);
    expectProblem(await tasks().remove(acme.viewer.accessToken, task.id), 403, 'forbidden');
    expectProblem(await tasks().remove(acme.outsider.accessToken, task.id), 404, 'not_found');
    expectProblem(await tasks().remove(globex.owner.accessToken, task.id), 404, 'not_found');
    await archive(api.app, acme, project.key);
    expectProblem(await tasks().remove(acme.owner.accessToken, task.id), 409, 'project_archived');
    expect(await storedTask(api.db, task.id)).toMatchObject({ version: 1 });
  });
});

describe('what happens to tasks when labels and members go', () => {
  it('takes a deleted label off every task that has it, archived projects included, as task.updated', async () => {
    const label = await labelIn(api.app, acme);
    const other = await labelIn(api.app, acme);
    const archivedProject = await projectIn(api.app, acme);
    const active = await taskIn(api.app, acme, board.key, { label_ids: [label, other] });
    const archived = await taskIn(api.app, acme, archivedProject.key, { label_ids: [label] });
    await archive(api.app, acme, archivedProject.key);
    const response = await labelCalls(api.app, acme).remove(acme.admin.accessToken, label);
    expect(response.status).toBe(204);
    expect(await storedTask(api.db, active.id)).toMatchObject({ label_ids: [other], version: 2 });
    expect(await storedTask(api.db, archived.id)).toMatchObject({ label_ids: [], version: 2 });
    const [, event] = await eventsOfTask(api.db, active.id);
    expect(event).toMatchObject({ type: 'task.updated', previous_attributes: { label_ids: [label, other] } });
  });

  it('unassigns a member who leaves, archived projects included', async () => {
    const team = await createWorkspaceWithRoles(api.db);
    const project = await projectIn(api.app, team);
    const task = await taskIn(api.app, team, project.key, { assignee_id: team.member.id });
    await archive(api.app, team, project.key);
    const response = await memberCalls(api.app, team).remove(team.admin.accessToken, team.member.id);
    expect(response.status).toBe(204);
    expect(await storedTask(api.db, task.id)).toMatchObject({ assignee_id: null, version: 2 });
  });
});

function titlesOf(response: TypedResponse<TaskList>): string[] {
  return response.body.data.map((task) => task.title);
}
