/**
 * The board's reads stay index reads under RLS (docs/decisions/0012): a column's page and a move's
 * neighbour read take the status as an index condition, so they read the rows they answer and no others,
 * whatever the size of the other columns. Run as a member, as the API runs them, with EXPLAIN ANALYZE;
 * the list is the one `npm run bench` measures.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Sql } from '../../supabase/functions/_shared/db.ts';
import { columnFilter } from '../../bench/list-query.ts';
import { selectPositionBefore, selectTasks } from '../../supabase/functions/api/tasks/tasks.queries.ts';
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

describe('reading the board as a member', () => {
  const sqlTest = useSqlAsUser('task-list-plans.test');
  let member: string;
  let projectId: string;

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
    await sqlTest.db.query('analyze public.tasks');
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

  test("a move's neighbour read takes the column's last row from the index, reading no other", async () => {
    const plan = await planOf((sql) => selectPositionBefore(sql, projectId, 'done', null, null));
    const scan = tasksScanOf(plan);
    expect(scan['Node Type']).toMatch(/^Index (Only )?Scan$/);
    expect(scan['Index Cond']).toMatch(/status = 'done'/);
    expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
    expect(scan['Actual Rows']).toBe(1);
  });
});
