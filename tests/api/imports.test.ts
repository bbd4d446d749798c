/**
 * Imports through the API (docs/product.md#imports): a dry run previews and writes nothing; a real run
 * writes every project, label, task and comment in one transaction or nothing; running it again creates
 * nothing new; bad files and forms get precise problems and change nothing; nobody is notified.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { trelloBoardFixtureText } from '../../supabase/functions/api/imports/trello-fixture.ts';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { expectProblem } from '../support/api-request.ts';
import { digestPublicTables } from '../support/database-digest.ts';
import { importCalls, importIn, previewIn, type ImportOptions } from '../support/import-calls.ts';
import { asService } from '../support/service-transaction.ts';
import { withBearer } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });
const imports = () => importCalls(api.app);

let ws: WorkspaceFixture;
beforeAll(async () => {
  ws = await createWorkspaceWithRoles(api.db);
});

/** A small Trello board, written as Trello exports one. */
function trelloBoard(memberEmail: string, id = `b0ard${Math.random().toString(16).slice(2, 14)}`) {
  return {
    id,
    name: 'Launch plan',
    desc: 'The launch board.',
    closed: false,
    lists: [
      { id: 'list-done', name: 'Done', closed: false, pos: 3 },
      { id: 'list-todo', name: 'To do', closed: false, pos: 1 },
      { id: 'list-doing', name: 'Doing', closed: false, pos: 2 },
    ],
    labels: [
      { id: 'l-bug', name: 'Bug', color: 'red' },
      { id: 'l-ux', name: 'UX', color: 'purple' },
    ],
    members: [
      { id: 'm-ada', fullName: 'Ada Lovelace', username: 'ada', email: memberEmail },
      { id: 'm-bob', fullName: 'Bob Builder', username: 'bob' },
    ],
    cards: [
      card('c-2', 'Second in To do', 'list-todo', 200),
      {
        ...card('c-1', 'First in To do', 'list-todo', 100),
        desc: '<script>alert(1)</script> stays text',
        due: '2026-12-31T10:00:00.000Z',
        idLabels: ['l-bug', 'l-ux'],
        idMembers: ['m-ada'],
        idChecklists: ['cl-1'],
      },
      card('c-3', 'Doing it', 'list-doing', 1),
      card('c-4', 'Shipped', 'list-done', 1),
      { ...card('c-5', 'Archived card', 'list-todo', 300), closed: true },
    ],
    checklists: [
      {
        id: 'cl-1',
        idCard: 'c-1',
        name: 'Steps',
        pos: 1,
        checkItems: [
          { id: 'i-1', name: 'Write', state: 'complete', pos: 1 },
          { id: 'i-2', name: 'Ship', state: 'incomplete', pos: 2 },
        ],
      },
    ],
    actions: [
      {
        id: 'a-1',
        type: 'commentCard',
        date: '2026-03-01T09:00:00.000Z',
        idMemberCreator: 'm-bob',
        memberCreator: { id: 'm-bob', fullName: 'Bob Builder', username: 'bob' },
        data: { text: 'Looks good', card: { id: 'c-1', name: 'First in To do' } },
      },
    ],
  };
}

function card(id: string, name: string, list: string, pos: number) {
  return {
    id,
    name,
    desc: '',
    idList: list,
    closed: false,
    pos,
    due: null,
    idLabels: [],
    idMembers: [],
    idChecklists: [],
  };
}

async function importTrello(board: unknown, dryRun: boolean, options?: Partial<ImportOptions>) {
  return imports().run(ws.admin.accessToken, ws.slug, {
    source: 'trello',
    file: JSON.stringify(board),
    dryRun,
    ...(options ? { options } : {}),
  });
}

interface TaskRow {
  title: string;
  description: string;
  status: string;
  position: string;
  assignee_id: string | null;
  due_date: string | null;
  labels: string[];
  source_id: string;
  comments: string[];
}

async function tasksOf(projectId: string): Promise<TaskRow[]> {
  return asService(api.db, (sql) =>
    sql.query<TaskRow & Record<string, unknown>>(
      `select t.title, t.description, t.status, t.position, t.assignee_id, t.due_date::text, t.source_id,
         array(select l.name from public.labels l where l.id = any(t.label_ids) order by l.name) as labels,
         array(select c.body from public.comments c where c.task_id = t.id order by c.created_at) as comments
       from public.tasks t where t.project_id = $1
       order by private.task_status_rank(t.status), t.position`,
      [projectId],
    ),
  );
}

const countRows = async (sql: string, values: unknown[]) =>
  Number((await asService(api.db, (q) => q.query<{ n: string }>(sql, values)))[0]?.n);

describe('a dry run', () => {
  it('answers what the import would make, and writes nothing', async () => {
    const before = await digestPublicTables(api.db);
    const preview = previewIn(await importTrello(trelloBoard(ws.member.email), true));
    expect(preview).toMatchObject({
      object: 'import_preview',
      source: 'trello',
      can_import: true,
      counts: { projects: 1, tasks: 4, comments: 1, labels: 2 },
      labels: [
        { name: 'Bug', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
        { name: 'UX', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
      ],
      csv_columns: [],
    });
    const [project] = preview.projects;
    expect(project).toMatchObject({
      name: 'Launch plan',
      key: 'LP',
      exists: false,
      tasks: { create: 4, already_imported: 0, archived_skipped: 1, invalid: 0 },
    });
    expect(project?.columns.map(({ name, status, tasks }) => ({ name, status, tasks }))).toEqual([
      { name: 'To do', status: 'todo', tasks: 2 },
      { name: 'Doing', status: 'in_progress', tasks: 1 },
      { name: 'Done', status: 'done', tasks: 1 },
    ]);
    expect(project?.first_tasks[0]).toEqual({
      title: 'First in To do',
      status: 'todo',
      priority: 'none',
      assignee_id: ws.member.id,
      due_date: '2026-12-31',
      labels: ['Bug', 'UX'],
    });
    expect(await digestPublicTables(api.db)).toEqual(before);
  });

  it('shows a file that is not what its source says as an error, and can_import false', async () => {
    const response = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'trello',
      file: 'title,status\nA,Done\n',
      dryRun: true,
    });
    const preview = previewIn(response);
    expect(preview.can_import).toBe(false);
    expect(preview.problems[0]).toMatchObject({ severity: 'error' });
  });
});

describe('an import', () => {
  it('writes the board: project, statuses, order, labels, assignees, checklists, comments, and answers it', async () => {
    const response = await importTrello(trelloBoard(ws.member.email), false);
    const done = importIn(response);
    expect(response.headers.get('location')).toBe(`imports/${done.id}`);
    expect(done).toMatchObject({
      object: 'import',
      source: 'trello',
      status: 'succeeded',
      counts: { projects: 1, tasks: 4, comments: 1, labels: 2 },
      created_by: ws.admin.id,
    });
    const projectId = done.projects[0]?.id ?? '';
    expect(done.projects).toEqual([{ id: projectId, key: 'LP', name: 'Launch plan' }]);

    const tasks = await tasksOf(projectId);
    expect(tasks.map(({ title, status }) => [title, status])).toEqual([
      ['First in To do', 'todo'],
      ['Second in To do', 'todo'],
      ['Doing it', 'in_progress'],
      ['Shipped', 'done'],
    ]);
    const [first] = tasks;
    expect(first).toMatchObject({
      assignee_id: ws.member.id,
      due_date: '2026-12-31',
      labels: ['Bug', 'UX'],
      source_id: 'trello:c-1',
    });
    expect(first?.description).toContain('<script>alert(1)</script> stays text');
    expect(first?.description).toContain('- [x] Write');
    expect(first?.description).toContain('- [ ] Ship');
    expect(first?.comments).toEqual(['*Bob Builder wrote on 2026-03-01:*\n\nLooks good']);

    const fetched = await imports().get(ws.owner.accessToken, ws.slug, done.id);
    expect(fetched.status, fetched.text).toBe(200);
    expect(fetched.body).toEqual(done);
  });

  it('creates nothing new when the same file is imported again, and finds its project', async () => {
    const board = trelloBoard(ws.member.email);
    const first = importIn(await importTrello(board, false));
    const second = importIn(await importTrello(board, false));
    expect(second.projects).toEqual(first.projects);
    expect(second.counts).toEqual({ projects: 0, tasks: 0, comments: 0, labels: 0 });
    expect(await tasksOf(first.projects[0]?.id ?? '')).toHaveLength(4);

    const preview = previewIn(await importTrello(board, true));
    expect(preview.projects[0]).toMatchObject({ exists: true, tasks: { create: 0, already_imported: 4 } });
  });

  it('follows the options: a status per list, archived cards as Canceled, a project key and name', async () => {
    const response = await importTrello(trelloBoard(ws.member.email), false, {
      project: { key: 'OPT', name: 'Chosen name' },
      statuses: { 'list-doing': 'in_review' },
      archived: 'canceled',
    });
    const done = importIn(response);
    expect(done.projects[0]).toMatchObject({ key: 'OPT', name: 'Chosen name' });
    const tasks = await tasksOf(done.projects[0]?.id ?? '');
    expect(tasks.map(({ title, status }) => [title, status])).toEqual([
      ['First in To do', 'todo'],
      ['Second in To do', 'todo'],
      ['Doing it', 'in_review'],
      ['Shipped', 'done'],
      ['Archived card', 'canceled'],
    ]);
  });

  it('imports into an existing project by its key, after its own tasks', async () => {
    const into = await importTrello(trelloBoard(ws.member.email), false, { project: { key: 'INTO' } });
    const target = importIn(into).projects[0];
    // Another board: Trello's card ids are its own.
    const board = JSON.parse(
      JSON.stringify(trelloBoard(ws.member.email)).replaceAll('"c-', '"d-'),
    ) as unknown;
    const response = await importTrello(board, false, { project: { key: 'INTO' } });
    expect(importIn(response).projects).toEqual([target]);
    const tasks = await tasksOf(target?.id ?? '');
    expect(tasks.filter((task) => task.status === 'todo').map((task) => task.title)).toEqual([
      'First in To do',
      'Second in To do',
      'First in To do',
      'Second in To do',
    ]);
  });

  it('tells nobody: an assigned member gets no notification', async () => {
    const before = await countRows('select count(*) as n from public.notifications where user_id = $1', [
      ws.member.id,
    ]);
    const response = await importTrello(trelloBoard(ws.member.email), false);
    expect(response.status, response.text).toBe(201);
    expect(
      await countRows('select count(*) as n from public.notifications where user_id = $1', [ws.member.id]),
    ).toBe(before);
    expect(
      await countRows(
        "select count(*) as n from public.events where workspace_id = $1 and type = 'task.created'",
        [ws.id],
      ),
    ).toBeGreaterThan(0);
  });

  it('writes nothing at all when a statement fails halfway', async () => {
    const board = trelloBoard(ws.member.email);
    await asService(api.db, async (sql) => {
      await sql.query(`create function public.refuse_imported_comment() returns trigger language plpgsql
        as $$ begin raise exception 'refused for the test'; end $$`);
      await sql.query(`create trigger refuse_imported_comment before insert on public.comments
        for each row when (new.body like '%Looks good%') execute function public.refuse_imported_comment()`);
    });
    try {
      const before = await digestPublicTables(api.db);
      const response = await importTrello(board, false);
      expect(response.status).toBe(500);
      expect(api.logs.forRequest(response.headers.get('x-request-id') ?? '')).toContainEqual(
        expect.objectContaining({ level: 'error', error_message: 'refused for the test' }),
      );
      expect(await digestPublicTables(api.db)).toEqual(before);
    } finally {
      await asService(api.db, async (sql) => {
        await sql.query('drop trigger refuse_imported_comment on public.comments');
        await sql.query('drop function public.refuse_imported_comment()');
      });
    }
  });

  it('imports a 2,000-card board in batches, every card once, in order', async () => {
    const text = trelloBoardFixtureText({ cards: 2_000 });
    const response = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'trello',
      file: text,
      dryRun: false,
    });
    const done = importIn(response);
    const projectId = done.projects[0]?.id ?? '';
    expect(await countRows('select count(*) as n from public.tasks where project_id = $1', [projectId])).toBe(
      done.counts.tasks,
    );
    expect(
      await countRows('select count(distinct source_id) as n from public.tasks where project_id = $1', [
        projectId,
      ]),
    ).toBe(done.counts.tasks);
  });
});

describe('refusals', () => {
  it('refuses a file with errors with 422 naming each problem, and writes nothing', async () => {
    const before = await digestPublicTables(api.db);
    const response = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'trello',
      file: '{"id": "b", "lists": [',
      dryRun: false,
    });
    const problem = expectProblem(response, 422, 'validation_failed');
    expect(problem.errors?.[0]).toMatchObject({
      path: expect.stringMatching(/^file\./),
      code: 'import_problem',
    });
    expect(await digestPublicTables(api.db)).toEqual(before);
  });

  it('names every broken field of the form', async () => {
    const form = new FormData();
    form.set('source', 'jira');
    form.set('dry_run', 'maybe');
    form.set('extra', 'x');
    form.set('options', '{"archived": "burn", "nope": 1}');
    const response = await imports().send(ws.admin.accessToken, ws.slug, form);
    const problem = expectProblem(response, 422, 'validation_failed');
    expect(problem.errors?.map((error) => error.path).sort()).toEqual([
      'body.dry_run',
      'body.extra',
      'body.file',
      'body.options.archived',
      'body.options.nope',
      'body.source',
    ]);
  });

  it('refuses options that are not JSON, and a file that is not UTF-8', async () => {
    const notJson = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'trello',
      file: '{}',
      dryRun: true,
      options: '{not json',
    });
    expect(expectProblem(notJson, 422, 'validation_failed').errors).toEqual([
      { path: 'body.options', code: 'invalid_json', message: 'must be a JSON object' },
    ]);
    const binary = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'csv',
      file: new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0xc3]),
      dryRun: true,
    });
    expect(expectProblem(binary, 422, 'validation_failed').errors?.[0]).toMatchObject({ path: 'body.file' });
  });

  it('takes only multipart/form-data (415) of at most 20 MiB (413)', async () => {
    const json = await api.app.request(
      `/api/v1/workspaces/${ws.slug}/imports`,
      withBearer(ws.admin.accessToken, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'trello', dry_run: 'true' }),
      }),
    );
    expect(json.status).toBe(415);
    const huge = await imports().run(ws.admin.accessToken, ws.slug, {
      source: 'csv',
      file: 'x'.repeat(20 * 1024 * 1024 + 1),
      dryRun: true,
    });
    expectProblem(huge, 413, 'payload_too_large');
  });

  it('lets only owners and admins import or read imports; outsiders see no workspace', async () => {
    const call = { source: 'trello', file: JSON.stringify(trelloBoard(ws.member.email)), dryRun: true };
    expectProblem(await imports().run(ws.member.accessToken, ws.slug, call), 403, 'forbidden');
    expectProblem(await imports().run(ws.viewer.accessToken, ws.slug, call), 403, 'forbidden');
    expectProblem(await imports().run(ws.outsider.accessToken, ws.slug, call), 404, 'not_found');
    expect((await imports().run(ws.owner.accessToken, ws.slug, call)).status).toBe(200);
    const id = crypto.randomUUID();
    expectProblem(await imports().get(ws.owner.accessToken, ws.slug, id), 404, 'not_found');
  });
});

describe('a CSV', () => {
  const csv = (
    text: string,
    options?: Partial<ImportOptions>,
    dryRun = true,
    fileName = 'Roadmap 2027.csv',
  ) =>
    imports().run(ws.admin.accessToken, ws.slug, {
      source: 'csv',
      file: text,
      dryRun,
      fileName,
      ...(options ? { options } : {}),
    });

  it('reads a BOM, semicolons, quoted newlines and unknown columns, and says what it did', async () => {
    const text =
      '\uFEFFSummary;Notes;State;Due;Tags;Mood\r\n' +
      `Plan;"line one\r\nline two; still notes";Doing;2027-02-03;ops, infra;happy\r\n` +
      `"Say ""hi""";;Done;03/02/2027;;sad\r\n`;
    const preview = previewIn(await csv(text));
    expect(preview.csv_columns).toEqual([
      { header: 'Summary', field: 'title' },
      { header: 'Notes', field: 'description' },
      { header: 'State', field: 'status' },
      { header: 'Due', field: 'due_date' },
      { header: 'Tags', field: 'labels' },
      { header: 'Mood', field: 'ignored' },
    ]);
    expect(preview.projects[0]).toMatchObject({ name: 'Roadmap 2027', key: 'R2' });
    expect(
      preview.projects[0]?.first_tasks.map(({ title, status, due_date }) => [title, status, due_date]),
    ).toEqual([
      ['Plan', 'in_progress', '2027-02-03'],
      ['Say "hi"', 'done', '2027-02-03'],
    ]);
    expect(preview.problems.map((problem) => problem.message).join('\n')).toMatch(/Mood/);
    expect(preview.problems.map((problem) => problem.message).join('\n')).toMatch(/03\/02\/2027/);
  });

  it('takes the columns as the person maps them', async () => {
    const preview = previewIn(
      await csv('What,Who\nFix it,x@example.com\n', { csv_columns: { What: 'title', Who: 'ignored' } }),
    );
    expect(preview.csv_columns).toEqual([
      { header: 'What', field: 'title' },
      { header: 'Who', field: 'ignored' },
    ]);
    expect(preview.counts.tasks).toBe(1);
  });

  it('says what is wrong with a file that has no title column, and refuses to import it', async () => {
    const preview = previewIn(await csv('Colour,Size\nred,big\n'));
    expect(preview.can_import).toBe(false);
    expectProblem(await csv('Colour,Size\nred,big\n', undefined, false), 422, 'validation_failed');
  });

  it('cuts a title over the limit with a warning, and keeps markdown and HTML as text', async () => {
    const long = 'x'.repeat(250);
    const done = importIn(
      await csv(`Title,Description\n${long},<img src=x onerror=alert(1)> **bold**\n`, undefined, false),
    );
    const [task] = await tasksOf(done.projects[0]?.id ?? '');
    expect(task?.title).toHaveLength(200);
    expect(task?.description).toBe('<img src=x onerror=alert(1)> **bold**');
    expect(done.problems.some((problem) => problem.severity === 'warning')).toBe(true);
  });

  it('previews 10,000 rows', async () => {
    const rows = Array.from({ length: 10_000 }, (_, n) => `Task ${n},${['Todo', 'Done'][n % 2]}`);
    const preview = previewIn(await csv(`Title,Status\n${rows.join('\n')}\n`, undefined, true, 'Big.csv'));
    expect(preview.counts.tasks).toBe(10_000);
    expect(preview.projects[0]?.columns.map(({ name, tasks }) => [name, tasks])).toEqual([
      ['Todo', 5_000],
      ['Done', 5_000],
    ]);
  });
});

describe('a Trello label used with two colours', () => {
  it('keeps the first colour and warns', async () => {
    const board = trelloBoard(ws.member.email);
    board.labels.push({ id: 'l-new-1', name: 'Brand new', color: 'green' });
    board.labels.push({ id: 'l-new-2', name: 'brand NEW', color: 'blue' });
    const preview = previewIn(await importTrello(board, true));
    expect(preview.labels.filter((label) => label.name.toLowerCase() === 'brand new')).toEqual([
      { name: 'Brand new', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
    ]);
    expect(preview.problems.some((problem) => /brand new/i.test(problem.message))).toBe(true);
  });
});
