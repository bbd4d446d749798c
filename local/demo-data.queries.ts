/**
 * SQL behind local/demo-data.ts. Runs as the database owner, past RLS, but through the same tables and
 * triggers as the API: task numbers, completion times and events come out as they would there.
 */
import type { Db } from './db.ts';

/** Makes what follows count as `userId`'s doing (the events' actor) until the transaction ends. */
export async function actAs(db: Db, userId: string): Promise<void> {
  await db.query("select set_config('request.jwt.claims', $1, true)", [
    JSON.stringify({ sub: userId, role: 'authenticated' }),
  ]);
}

export async function isInAnyWorkspace(db: Db, userId: string): Promise<boolean> {
  const result = await db.query('select 1 from public.memberships where user_id = $1 limit 1', [userId]);
  return result.rowCount !== 0;
}

export async function isSlugTaken(db: Db, slug: string): Promise<boolean> {
  const result = await db.query('select 1 from public.workspaces where slug = $1', [slug]);
  return result.rowCount !== 0;
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

export async function insertLabel(
  db: Db,
  workspaceId: string,
  label: { name: string; color: string; createdBy: string },
): Promise<string> {
  const result = await db.query<{ id: string }>(
    'insert into public.labels (workspace_id, name, color, created_by) values ($1, $2, $3, $4) returning id',
    [workspaceId, label.name, label.color, label.createdBy],
  );
  return firstId(result.rows);
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

export interface NewDemoTask {
  title: string;
  description: string;
  status: string;
  priority: string;
  assigneeId: string | null;
  labelIds: readonly string[];
  dueInDays: number | null;
  position: string;
  createdBy: string;
}

export async function insertTask(db: Db, projectId: string, task: NewDemoTask): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into public.tasks (project_id, title, description, status, priority, assignee_id, label_ids,
       due_date, position, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, current_date + $8::integer, $9, $10)
     returning id`,
    [
      projectId,
      task.title,
      task.description,
      task.status,
      task.priority,
      task.assigneeId,
      task.labelIds,
      task.dueInDays,
      task.position,
      task.createdBy,
    ],
  );
  return firstId(result.rows);
}

export async function insertComment(db: Db, taskId: string, authorId: string, body: string): Promise<void> {
  await db.query('insert into public.comments (task_id, author_id, body) values ($1, $2, $3)', [
    taskId,
    authorId,
    body,
  ]);
}

function firstId(rows: readonly { id: string }[]): string {
  const [row] = rows;
  if (!row) throw new Error('an insert returned no row');
  return row.id;
}
