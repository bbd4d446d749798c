/**
 * Reads across a workspace (the board and task-panel work): every project's tasks in one list
 * (listWorkspaceTasks), and the counts per status that follow the same filters (countProjectTasks,
 * countWorkspaceTasks). The project's own list (listTasks, tests/api/tasks.test.ts) is the oracle for order
 * and filters.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, RATE_LIMITS_OUT_OF_THE_WAY } from '../support/api-app.ts';
import type { TypedResponse } from '../support/api-client.ts';
import { expectProblem } from '../support/api-request.ts';
import {
  archive,
  labelIn,
  projectIn,
  taskCalls,
  taskIn,
  type Project,
  type Task,
  type TaskCounts,
  type TaskList,
} from '../support/task-calls.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });
const tasks = () => taskCalls(api.app);

const STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'] as const;
type ByStatus = TaskCounts['by_status'];
const day = (offset: number) => new Date(Date.UTC(2027, 0, 10 + offset)).toISOString().slice(0, 10);

let acme: WorkspaceFixture;
let globex: WorkspaceFixture;
/** Active, active, archived, and one without tasks; `byKey` is them in key order. */
let alpha: Project;
let beta: Project;
let archived: Project;
let empty: Project;
let byKey: Project[];
let bug: string;
let foreign: Task;
const tasksOf = new Map<string, Task[]>();

beforeAll(async () => {
  [acme, globex] = await Promise.all([createWorkspaceWithRoles(api.db), createWorkspaceWithRoles(api.db)]);
  [alpha, beta, archived, empty] = await Promise.all([
    projectIn(api.app, acme),
    projectIn(api.app, acme),
    projectIn(api.app, acme),
    projectIn(api.app, acme),
  ]);
  byKey = [alpha, beta, archived, empty].sort((a, b) => (a.key < b.key ? -1 : 1));
  bug = await labelIn(api.app, acme);
  const member = acme.member.id;
  const specs: [Project, Record<string, unknown>][] = [
    [
      alpha,
      { title: 'Alpha login', status: 'todo', priority: 'high', assignee_id: member, due_date: day(2) },
    ],
    [alpha, { title: 'Alpha docs', status: 'backlog', priority: 'low' }],
    [alpha, { title: 'Alpha shipped', status: 'done', assignee_id: member, due_date: day(0) }],
    [
      beta,
      {
        title: 'Beta login page',
        status: 'in_progress',
        priority: 'urgent',
        assignee_id: member,
        label_ids: [bug],
        due_date: day(1),
      },
    ],
    [beta, { title: 'Beta review', status: 'in_review', label_ids: [bug] }],
    [archived, { title: 'Archived login', status: 'todo', assignee_id: member, due_date: day(3) }],
    [archived, { title: 'Archived canceled', status: 'canceled', priority: 'medium' }],
  ];
  for (const [project, spec] of specs) {
    const task = await taskIn(api.app, acme, project.key, spec);
    tasksOf.set(project.key, [...(tasksOf.get(project.key) ?? []), task]);
  }
  await archive(api.app, acme, archived.key);
  const elsewhere = await projectIn(api.app, globex);
  foreign = await taskIn(api.app, globex, elsewhere.key, { title: 'Globex login', status: 'todo' });
});

const titles = (response: TypedResponse<TaskList>) => response.body.data.map((task) => task.title);
const list = (query = '', bearer = acme.viewer.accessToken) => tasks().listInWorkspace(bearer, acme, query);
/** What the project's own list answers to the same query, project after project in key order. */
async function projectByProject(projects: readonly Project[], query = '', bearer = acme.viewer.accessToken) {
  // One after the other: a search takes one of the caller's few search slots.
  const found: Task[] = [];
  for (const project of projects)
    found.push(...(await tasks().list(bearer, acme, project.key, query)).body.data);
  return found;
}

describe('GET /api/v1/workspaces/{slug}/tasks', () => {
  it('lists every project, archived ones too, by project key then in board order, to a viewer', async () => {
    const response = await list();
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual(await projectByProject(byKey));
    expect(response.body.data).toHaveLength(7);
    expect(response.body.next_cursor).toBeNull();
  });

  it.each([
    ['?project=ALPHA', ['ALPHA']],
    ['?project=BETA,ALPHA', ['ALPHA', 'BETA']],
    ['?project=BETA&project=ARCHIVED', ['ARCHIVED', 'BETA']],
    ['?project=ALPHA,ALPHA', ['ALPHA']],
    ['?project=ALPHA,NOSUCH', ['ALPHA']],
    ['?project=NOSUCH', []],
  ])('narrows to the projects named: %s', async (query, names) => {
    const keyOf: Record<string, string> = { ALPHA: alpha.key, BETA: beta.key, ARCHIVED: archived.key };
    const resolved = query.replace(/ALPHA|BETA|ARCHIVED/g, (name) => keyOf[name] ?? name);
    const named = byKey.filter((project) => names.some((name) => keyOf[name] === project.key));
    const response = await list(resolved);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual(await projectByProject(named));
  });

  it.each([
    '?status=todo',
    '?status=todo&status=in_review',
    '?priority=high,urgent',
    '?assignee=none',
    '?assignee=none,me',
    '?label=LABEL',
    '?label=LABEL&label=LABEL&assignee=none&assignee=me',
    '?q=login',
    `?due_before=${day(2)}`,
    `?due_after=${day(0)}&due_before=${day(3)}`,
  ])('filters %s as the project list does, across projects', async (query) => {
    const resolved = query.replaceAll('LABEL', bug);
    const response = await list(resolved);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual(await projectByProject(byKey, resolved));
  });

  it("answers the caller's open tasks across projects, soonest due first", async () => {
    const mine = await list(
      '?assignee=me&status=backlog,todo,in_progress,in_review&sort=due_date',
      acme.member.accessToken,
    );
    expect(titles(mine)).toEqual(['Beta login page', 'Alpha login', 'Archived login']);
  });

  it("never shows another workspace's tasks, even to a search that would match them", async () => {
    const ids = (await list('?q=login')).body.data.map((task) => task.id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain(foreign.id);
    expect((await tasks().listInWorkspace(globex.viewer.accessToken, globex)).body.data).toEqual([foreign]);
  });

  it.each(['position', 'due_date', '-priority', 'created_at', '-updated_at'])(
    'walks every task once in the order of sort=%s, two at a time, following Link',
    async (sort) => {
      const whole = (await list(`?sort=${sort}`)).body.data.map((task) => task.id);
      expect(whole).toHaveLength(7);
      const seen: string[] = [];
      let query = `?sort=${sort}&limit=2`;
      for (let pages = 0; pages < 10; pages += 1) {
        const response = await list(query);
        expect(response.status, response.text).toBe(200);
        seen.push(...response.body.data.map((task) => task.id));
        if (!response.body.next_cursor) break;
        const link = response.headers.get('Link') ?? '';
        query = link.slice(1, link.indexOf('>'));
      }
      expect(seen).toEqual(whole);
    },
  );

  it("refuses a cursor of a project's list, and its cursors are not a project list's, with 400", async () => {
    const projectPage = (await tasks().list(acme.viewer.accessToken, acme, alpha.key, '?limit=1')).body;
    expectProblem(await list(`?cursor=${projectPage.next_cursor ?? ''}`), 400, 'bad_request');
    const workspacePage = (await list('?limit=1')).body;
    expectProblem(
      await tasks().list(
        acme.viewer.accessToken,
        acme,
        alpha.key,
        `?cursor=${workspacePage.next_cursor ?? ''}`,
      ),
      400,
      'bad_request',
    );
    const problem = expectProblem(
      await list(`?sort=due_date&cursor=${workspacePage.next_cursor ?? ''}`),
      400,
      'bad_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['query.cursor']);
  });

  it.each([
    ['?project=eng', 'query.project'],
    ['?project=', 'query.project'],
    ['?project=ENG,', 'query.project'],
    ['?project=ENG&project=e', 'query.project'],
    ['?project=ABCDEFGHIJK', 'query.project'],
    ['?status=doing', 'query.status'],
    ['?q=', 'query.q'],
    ['?sort=-position', 'query.sort'],
    ['?key=ENG', 'query.key'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const problem = expectProblem(await list(query), 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });

  it('answers 404 to outsiders and to members of other workspaces', async () => {
    expectProblem(await list('', acme.outsider.accessToken), 404, 'not_found');
    expectProblem(await list('', globex.owner.accessToken), 404, 'not_found');
  });

  it('lets a read token list', async () => {
    const readToken = await createApiTokenFor(api.app, acme.viewer, 'read');
    expect(titles(await list('?status=todo', readToken))).toEqual(
      titles(await list('?status=todo', acme.viewer.accessToken)),
    );
  });
});

const counts = (...pairs: [(typeof STATUSES)[number], number][]): ByStatus => {
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as ByStatus;
  for (const [status, count] of pairs) byStatus[status] = count;
  return byStatus;
};
const total = (byStatus: ByStatus) => STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
/** What the counts of `tasks` are, as the API answers them for `projects`. */
function countsOf(projects: readonly Project[], found: readonly Task[]): TaskCounts {
  const tally = (of: readonly Task[]) =>
    counts(
      ...STATUSES.map(
        (s) => [s, of.filter((t) => t.status === s).length] as [(typeof STATUSES)[number], number],
      ),
    );
  const byProject = projects.map((project) => {
    const byStatus = tally(found.filter((task) => task.project_id === project.id));
    return { project_key: project.key, total: total(byStatus), by_status: byStatus };
  });
  const byStatus = tally(found);
  return { object: 'task_counts', total: total(byStatus), by_status: byStatus, by_project: byProject };
}

describe('GET /api/v1/workspaces/{slug}/projects/{key}/task-counts', () => {
  const count = (key: string, query = '', bearer = acme.viewer.accessToken) =>
    tasks().countInProject(bearer, acme, key, query);

  it('counts the project per status, every status present, to a viewer', async () => {
    const response = await count(alpha.key);
    expect(response.status, response.text).toBe(200);
    const byStatus = counts(['backlog', 1], ['todo', 1], ['done', 1]);
    expect(response.body).toEqual({
      object: 'task_counts',
      total: 3,
      by_status: byStatus,
      by_project: [{ project_key: alpha.key, total: 3, by_status: byStatus }],
    });
    expect((await count(empty.key)).body).toEqual(countsOf([empty], []));
    expect((await count(archived.key)).body).toEqual(countsOf([archived], tasksOf.get(archived.key) ?? []));
  });

  it.each([
    '?status=todo,done',
    '?assignee=me',
    '?assignee=me,none',
    '?label=LABEL',
    '?label=LABEL,LABEL&assignee=none&assignee=me',
    '?q=login',
    '?priority=urgent&status=in_progress',
    `?due_before=${day(2)}`,
  ])('follows the filters %s, as the list does', async (query) => {
    const resolved = query.replaceAll('LABEL', bug);
    for (const project of [alpha, beta]) {
      const listed = await tasks().list(acme.member.accessToken, acme, project.key, resolved);
      const response = await count(project.key, resolved, acme.member.accessToken);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(countsOf([project], listed.body.data));
    }
  });

  it.each([
    ['?sort=position', 'query.sort'],
    ['?limit=10', 'query.limit'],
    ['?cursor=abc', 'query.cursor'],
    ['?project=ENG', 'query.project'],
    ['?status=doing', 'query.status'],
    ['?q=', 'query.q'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const problem = expectProblem(await count(alpha.key, query), 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });

  it('answers 404 to outsiders, other workspaces and projects that are not there', async () => {
    expectProblem(await count(alpha.key, '', acme.outsider.accessToken), 404, 'not_found');
    expectProblem(await count(alpha.key, '', globex.owner.accessToken), 404, 'not_found');
    expectProblem(await count('NOSUCH'), 404, 'not_found');
    expectProblem(await count(alpha.key.toLowerCase()), 404, 'not_found');
  });
});

describe('GET /api/v1/workspaces/{slug}/task-counts', () => {
  const count = (query = '', bearer = acme.viewer.accessToken) =>
    tasks().countInWorkspace(bearer, acme, query);

  it('counts every project, archived and empty ones included, in key order', async () => {
    const response = await count();
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(countsOf(byKey, [...tasksOf.values()].flat()));
    expect(response.body.total).toBe(7);
    expect(response.body.by_project.map((entry) => entry.project_key)).toEqual(byKey.map((p) => p.key));
  });

  it.each([
    '',
    '?status=backlog,todo,in_progress,in_review',
    '?assignee=me&status=backlog,todo,in_progress,in_review',
    '?assignee=me,none&status=backlog,todo',
    '?q=login',
    '?label=LABEL',
    '?label=LABEL&label=LABEL',
    '?priority=none',
    '?project=ALPHA,BETA',
    '?project=ALPHA&project=EMPTY&status=todo',
  ])('follows the filters %s, as the workspace list does', async (query) => {
    const keyOf: Record<string, string> = { ALPHA: alpha.key, BETA: beta.key, EMPTY: empty.key };
    const resolved = query
      .replaceAll('LABEL', bug)
      .replace(/ALPHA|BETA|EMPTY/g, (name) => keyOf[name] ?? name);
    const named = resolved.includes('project=')
      ? byKey.filter((project) => resolved.includes(project.key))
      : byKey;
    const listed = await list(resolved, acme.member.accessToken);
    const response = await count(resolved, acme.member.accessToken);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(countsOf(named, listed.body.data));
  });

  it('leaves out keys that name no project, and counts nothing of another workspace', async () => {
    const response = await count(`?project=${alpha.key},NOSUCH`);
    expect(response.body.by_project.map((entry) => entry.project_key)).toEqual([alpha.key]);
    expect((await count('?project=NOSUCH')).body).toEqual(countsOf([], []));
    const theirs = await tasks().countInWorkspace(globex.viewer.accessToken, globex);
    expect(theirs.body.total).toBe(1);
  });

  it.each([
    ['?sort=position', 'query.sort'],
    ['?limit=10', 'query.limit'],
    ['?project=eng', 'query.project'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const problem = expectProblem(await count(query), 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });

  it('answers 404 to outsiders; lets a read token count', async () => {
    expectProblem(await count('', acme.outsider.accessToken), 404, 'not_found');
    const readToken = await createApiTokenFor(api.app, acme.viewer, 'read');
    expect((await count('', readToken)).body.total).toBe(7);
  });
});

describe('counts on a big project', () => {
  it('are exact on 10,000 tasks', async () => {
    const big = await projectIn(api.app, acme);
    // As the database's owner, without the triggers (numbering, events), which would take long at this size.
    const owner = new pg.Client({ connectionString: api.databaseUrl });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('set local session_replication_role = replica');
      await owner.query(
        `insert into public.tasks (workspace_id, project_id, number, title, status, priority, position, created_by)
         select $1, $2, n, 'Task ' || n, (array['backlog','todo','in_progress','in_review','done','canceled'])[1 + n % 6],
           (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
           'a' || lpad(n::text, 6, '0'), $3
         from generate_series(1, 10000) n`,
        [acme.id, big.id, acme.member.id],
      );
      await owner.query('commit');
      await owner.query('analyze public.tasks');
    } finally {
      await owner.end();
    }
    // n % 6 = 0 for 1,666 of 1..10,000 (6 … 9,996), 1 to 4 for 1,667 each, 5 for 1,666.
    const all = counts(
      ['backlog', 1666],
      ['todo', 1667],
      ['in_progress', 1667],
      ['in_review', 1667],
      ['done', 1667],
      ['canceled', 1666],
    );
    const response = await tasks().countInProject(acme.viewer.accessToken, acme, big.key);
    expect(response.body).toEqual({
      object: 'task_counts',
      total: 10_000,
      by_status: all,
      by_project: [{ project_key: big.key, total: 10_000, by_status: all }],
    });
    // n % 30 = 0 is backlog and none: 333 of them.
    const filtered = await tasks().countInProject(acme.viewer.accessToken, acme, big.key, '?priority=none');
    expect(filtered.body.total).toBe(2000);
    expect(filtered.body.by_status.backlog).toBe(333);
  });
});
