/**
 * The bench's bulk writes, as the database owner past RLS but through the same tables and triggers as
 * the API (numbers, events, completion times), like local/demo-data.queries.ts one row at a time.
 */
import type { Db } from '../local/db.ts';

export interface SeededTask {
  title: string;
  description: string;
  status: string;
  priority: string;
  assigneeId: string | null;
  position: string;
  createdBy: string;
}

/** Inserts the tasks in one statement, numbered in the order given. */
export async function insertTasks(db: Db, projectId: string, tasks: readonly SeededTask[]): Promise<void> {
  const column = <K extends keyof SeededTask>(key: K) => tasks.map((task) => task[key]);
  await db.query(
    `insert into public.tasks (project_id, title, description, status, priority, assignee_id, position, created_by)
     select $1, t.title, t.description, t.status, t.priority::public.task_priority,
       t.assignee_id, t.position, t.created_by
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::uuid[])
       with ordinality as t (title, description, status, priority, assignee_id, position, created_by, n)
     order by t.n`,
    [
      projectId,
      column('title'),
      column('description'),
      column('status'),
      column('priority'),
      column('assigneeId'),
      column('position'),
      column('createdBy'),
    ],
  );
}

/** Fresh statistics and visibility maps, as autovacuum would leave a table that filled up over time. */
export async function vacuumAnalyze(db: Db): Promise<void> {
  await db.query('vacuum (analyze) public.tasks, public.events, public.projects');
}

/** The first `count` tasks of a column, in board order. */
export async function selectColumnTaskIds(
  db: Db,
  projectId: string,
  status: string,
  count: number,
): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    'select id from public.tasks where project_id = $1 and status = $2 order by position limit $3',
    [projectId, status, count],
  );
  return result.rows.map((row) => row.id);
}
