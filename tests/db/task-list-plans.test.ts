/**
 * The board's reads stay index reads under RLS (docs/decisions/0012): a column's page and a move's
 * neighbour read take the status as an index condition, so they read the rows they answer and no others,
 * whatever the size of the other columns. Run as a member, as the API runs them, with EXPLAIN ANALYZE;
 * the list is the one `npm run bench` measures.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Sql } from '../../supabase/functions/_shared/db.ts';
import { columnFilter } from '../../bench/list-query.ts';
import {
  columnEndSql,
  selectTaskCounts,
  selectTasks,
} from '../../supabase/functions/api/tasks/tasks.queries.ts';
import { useSqlAsUser } from '../support/sql-as-user.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const TASKS_PER_COLUMN = 300;
const PAGE = 20;
const SEARCHED_TASKS = 20_000;

describe('reading the board as a member', () => {
  const sqlTest = useSqlAsUser('task-list-plans.test');
  let member: string;
  let projectId: string;
  let searchedProjectId: string;

  beforeAll(async () => {
    member = await sqlTest.newUser();
    const { rows: workspaces } = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (slug, name, created_by) values ('plans', 'Plans', $1) returning id`,
      [member],
    );
    const workspaceId = workspaces[0]?.id;
    await sqlTest.db.query(
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'member')`,
      [workspaceId, member],
    );
    const { rows: projects } = await sqlTest.db.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'PL', 'Plans', $2)
       returning id`,
      [workspaceId, member],
    );
    projectId = projects[0]?.id ?? '';
    await sqlTest.db.query(
      `insert into public.tasks (project_id, title, status, position, created_by)
       select $1, 'Task ' || n, (array['backlog', 'todo', 'done'])[1 + n % 3], 'a' || lpad(n::text, 6, '0'), $2
       from generate_series(1, $3) n`,
      [projectId, member, TASKS_PER_COLUMN * 3],
    );
    // A project of its own for text search, as big as a project may be.
    const { rows: searched } = await sqlTest.db.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'SR', 'Search', $2)
       returning id`,
      [workspaceId, member],
    );
    searchedProjectId = searched[0]?.id ?? '';
    // Written without the triggers (numbering, events), which would take a minute at this size.
    await sqlTest.db.query('begin');
    await sqlTest.db.query(`set local session_replication_role = replica`);
    await sqlTest.db.query(
      `insert into public.tasks (workspace_id, project_id, number, title, description, position, created_by)
       select $1, $2, n, 'Item ' || md5(n::text), repeat(md5('notes ' || n) || ' ', 10),
         'a' || lpad(n::text, 6, '0'), $3
       from generate_series(1, $4) n`,
      [workspaceId, searchedProjectId, member, SEARCHED_TASKS],
    );
    await sqlTest.db.query('commit');
    // As autovacuum would: a GIN index keeps new entries in a pending list until vacuumed.
    await sqlTest.db.query('vacuum analyze public.tasks');
  });

  /** The plan of the statement a queries function runs, run as the member. */
  async function planOf(read: (sql: Sql) => Promise<unknown>): Promise<PlanNode> {
    let plan: PlanNode | undefined;
    const explaining: Sql = {
      query: async <Row extends Record<string, unknown>>(text: string, values: readonly unknown[] = []) => {
        const outcome = await sqlTest.asUser<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          member,
          `explain (analyze, format json) ${text}`,
          [...values],
        );
        if (!('rows' in outcome)) throw new Error(`explain was refused: ${outcome.refused}`);
        plan = outcome.rows[0]?.['QUERY PLAN'][0]?.Plan;
        return [] as Row[];
      },
      lastStatement: (text, values) => explaining.query(text, values),
    };
    await read(explaining);
    if (!plan) throw new Error('no plan');
    return plan;
  }

  function tasksScanOf(plan: PlanNode): PlanNode {
    const scans: PlanNode[] = [];
    const visit = (node: PlanNode) => {
      if (node['Relation Name'] === 'tasks') scans.push(node);
      node.Plans?.forEach(visit);
    };
    visit(plan);
    expect(scans).toHaveLength(1);
    return scans[0] as PlanNode;
  }

  test.each(['todo', 'done'] as const)(
    "a page of the %s column reads that column's first rows from the board index, in order",
    async (status) => {
      const plan = await planOf((sql) =>
        selectTasks(sql, projectId, columnFilter(status), 'position', { limit: PAGE }),
      );
      const scan = tasksScanOf(plan);
      expect(scan['Node Type']).toBe('Index Scan');
      expect(scan['Index Name']).toBe('tasks_project_board_order_idx');
      expect(scan['Index Cond']).toContain('project_id');
      expect(scan['Index Cond']).toMatch(/CASE WHEN \(status = 'backlog'::text\) THEN 1/);
      expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
      expect(scan['Actual Rows']).toBe(PAGE + 1);
    },
  );

  test("the column's end (where a created or re-filed task goes) takes its last row from the index, reading no other", async () => {
    const plan = await planOf((sql) =>
      sql.query(`select ${columnEndSql('$1::uuid', "'done'")} as position`, [projectId]),
    );
    const scan = tasksScanOf(plan);
    expect(scan['Node Type']).toMatch(/^Index (Only )?Scan$/);
    expect(scan['Index Cond']).toMatch(/status = 'done'/);
    expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
    expect(scan['Actual Rows']).toBe(1);
  });

  /** Every index the plan reads. */
  function indexesOf(plan: PlanNode): string[] {
    const names: string[] = [];
    const visit = (node: PlanNode) => {
      if (node['Index Name']) names.push(node['Index Name']);
      node.Plans?.forEach(visit);
    };
    visit(plan);
    return names;
  }

  // The first security review: `q` was a scan of every task of the project, matched character by character.
  // Under RLS `ilike` cannot use an index (it is not leakproof), so the list takes the matching ids from
  // private.task_ids_matching, which matches as its owner through the trigram indexes.
  test('a text search (q) reads the ids it matched, and the match reads the trigram indexes', async () => {
    const { rows: wanted } = await sqlTest.db.query<{ text: string }>(`select md5('1234') as text`);
    const text = wanted[0]?.text.slice(4, 16) ?? '';
    const filters = { ...columnFilter('todo'), statuses: null, text };
    const plan = await planOf((sql) =>
      selectTasks(sql, searchedProjectId, filters, 'position', { limit: PAGE }),
    );
    // No row's text is matched outside the function (a small project's tasks may still be read whole,
    // as that is cheaper than a lookup per id, but only their ids are compared).
    expect(JSON.stringify(plan)).not.toContain('~~*');

    const { rows } = await sqlTest.db.query<{ body: string }>(
      `select prosrc as body from pg_proc where oid = 'private.task_ids_matching(uuid, text)'::regprocedure`,
    );
    await sqlTest.db.query('begin');
    try {
      await sqlTest.db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: member, role: 'authenticated' }),
      ]);
      const { rows: explained } = await sqlTest.db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `explain (analyze, format json) ${rows[0]?.body ?? ''}`,
        [searchedProjectId, `%${text}%`],
      );
      const inner = explained[0]?.['QUERY PLAN'][0]?.Plan;
      if (!inner) throw new Error('no plan');
      expect(indexesOf(inner)).toEqual(
        expect.arrayContaining(['tasks_title_trgm_idx', 'tasks_description_trgm_idx']),
      );
      expect(tasksScanOf(inner)['Actual Rows']).toBe(1);
    } finally {
      await sqlTest.db.query('rollback');
    }
  });

  // The board and task-panel work: the board's column counts, and each project's on the workspace home, are
  // one grouped statement that reads the tasks once, keeping only the project's at the scan (its id, one
  // initPlan, is an index condition where the project is a small part of the table; here it is half of it).
  test("a project's counts read the tasks once, keeping only the project's", async () => {
    const filters = { ...columnFilter('todo'), statuses: null };
    const plan = await planOf((sql) =>
      selectTaskCounts(sql, { slug: 'plans', projectKeys: ['PL'] }, filters),
    );
    expect(plan['Node Type']).toBe('Aggregate');
    expect(tasksScanOf(plan)['Actual Rows']).toBe(TASKS_PER_COLUMN * 3);
  });
});
