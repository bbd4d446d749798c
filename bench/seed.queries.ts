/**
 * The bench's writes, as the database owner past RLS but through the same tables and triggers as the API
 * (numbers, events, completion times).
 */
import type { Db } from '../local/db.ts';

/** Makes what follows count as `userId`'s doing (the events' actor) until the transaction ends. */
export async function actAs(db: Db, userId: string): Promise<void> {
  await db.query("select set_config('request.jwt.claims', $1, true)", [
    JSON.stringify({ sub: userId, role: 'authenticated' }),
  ]);
}

/** A workspace owned by `ownerId`; its id. */
export async function insertWorkspace(db: Db, slug: string, name: string, ownerId: string): Promise<string> {
  const result = await db.query<{ id: string }>(
    'insert into public.workspaces (slug, name, created_by) values ($1, $2, $3) returning id',
    [slug, name, ownerId],
  );
  return firstId(result.rows);
}

export async function insertMembership(
  db: Db,
  workspaceId: string,
  userId: string,
  role: string,
): Promise<void> {
  await db.query('insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

export async function insertProject(
  db: Db,
  workspaceId: string,
  project: { key: string; name: string; description: string; createdBy: string },
): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into public.projects (workspace_id, key, name, description, created_by)
     values ($1, $2, $3, $4, $5) returning id`,
    [workspaceId, project.key, project.name, project.description, project.createdBy],
  );
  return firstId(result.rows);
}

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

function firstId(rows: readonly { id: string }[]): string {
  const [row] = rows;
  if (!row) throw new Error('an insert returned no row');
  return row.id;
}
