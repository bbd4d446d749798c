/**
 * SQL for imports. Runs as the caller, in one transaction: RLS lets only the workspace's owners and admins
 * make projects and record imports, and editors write tasks, labels and comments, so an import writes
 * nothing its person could not write by hand. Rows go in many at a time (`jsonb_to_recordset`), in batches
 * of IMPORT_BATCH_SIZE tasks, so that no statement nears its time limit however large the board.
 */
import type { ImportSourceKind } from './import-source.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  brokenUniqueConstraint,
  raisedErrorCode,
  refusing,
  type Refusals,
} from '../../_shared/sql-errors.ts';
import type { Import, TaskPriority, TaskStatus } from '../../_shared/api-types.ts';
import {
  callerWorkspaceIdAt,
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import type { WorkspaceForImport } from './import-plan.ts';

/** Tasks per insert: each statement stays far within STATEMENT_TIMEOUT_SECONDS, triggers included. */
export const IMPORT_BATCH_SIZE = 500;

const PROJECT_KEY_CONSTRAINT = 'projects_workspace_id_key_key';

/** A refusal of an import's write: a limit a trigger holds, or a key taken meanwhile. */
const importRefusals: Refusals = (error) => {
  if (raisedErrorCode(error) === 'limit_reached') {
    return new AppError('limit_reached', 'The import would pass a limit of the workspace or a project.');
  }
  if (brokenUniqueConstraint(error) === PROJECT_KEY_CONSTRAINT) {
    return new AppError('project_key_taken', 'A project took this key while the import ran; import again.');
  }
  return undefined;
};

/**
 * What the plan needs to know of the workspace: its members (with e-mails), labels and projects. By the
 * slug of one of the caller's workspaces, it goes with the access check.
 */
export async function selectWorkspaceForImport(
  sql: Sql,
  workspace: WorkspaceReference,
  callerId: string,
): Promise<WorkspaceForImport> {
  const [row] = await sql.query<{
    members: WorkspaceForImport['members'];
    labels: WorkspaceForImport['labels'];
    projects: WorkspaceForImport['projects'];
  }>(
    `select
       (select coalesce(jsonb_agg(jsonb_build_object('userId', m.user_id, 'email', e.email, 'role', m.role)), '[]')
        from public.memberships m join private.member_emails($1) e on e.user_id = m.user_id
        where m.workspace_id = $1) as members,
       (select coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color)), '[]')
        from public.labels l where l.workspace_id = $1) as labels,
       (select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'key', p.key, 'name', p.name,
          'sourceId', p.source_id, 'archived', p.archived_at is not null)), '[]')
        from public.projects p where p.workspace_id = $1) as projects`.replaceAll('$1', () =>
      workspaceIdOf(workspace, '$1'),
    ),
    [workspaceValueOf(workspace)],
  );
  if (!row) throw new Error('select of the workspace for an import answered no row');
  return { callerId, members: row.members, labels: row.labels, projects: row.projects };
}

/**
 * The workspace's tasks among `sourceIds`, by project: what an earlier import made. By the slug of one of
 * the caller's workspaces, it goes with the access check.
 */
export async function selectImportedSourceIds(
  sql: Sql,
  workspace: WorkspaceReference,
  sourceIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const imported = new Map<string, Set<string>>();
  if (sourceIds.length === 0) return imported;
  const rows = await sql.query<{ project_id: string; source_id: string }>(
    `select t.project_id, t.source_id from public.tasks t
     where t.workspace_id = ${workspaceIdOf(workspace, '$1')}
       and t.source_id in (select unnest($2::text[]))`,
    [workspaceValueOf(workspace), sourceIds],
  );
  for (const row of rows) {
    const ids = imported.get(row.project_id) ?? new Set<string>();
    ids.add(row.source_id);
    imported.set(row.project_id, ids);
  }
  return imported;
}

/** Tells the triggers this transaction imports: nobody is notified of what it writes. */
export async function markImporting(sql: Sql): Promise<void> {
  await sql.query("select set_config('tasklane.importing', 'on', true)");
}

export interface NewImportedProject {
  key: string;
  name: string;
  description: string;
  sourceId: string;
}

export async function insertImportedProject(
  sql: Sql,
  workspaceId: string,
  project: NewImportedProject,
): Promise<string> {
  const [row] = await refusing(
    sql.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, description, source_id, created_by)
       values ($1, $2, $3, $4, $5, (select auth.uid())) returning id`,
      [workspaceId, project.key, project.name, project.description, project.sourceId],
    ),
    importRefusals,
  );
  if (!row) throw new Error('insert into projects returned no row');
  return row.id;
}

/** Makes the labels; answers each one's id by lower-cased name. */
export async function insertImportedLabels(
  sql: Sql,
  workspaceId: string,
  labels: readonly { name: string; color: string }[],
): Promise<Map<string, string>> {
  if (labels.length === 0) return new Map();
  const rows = await refusing(
    sql.query<{ id: string; name: string }>(
      `insert into public.labels (workspace_id, name, color, created_by)
       select $1, x.name, x.color, (select auth.uid()) from jsonb_to_recordset($2::jsonb) as x (name text, color text)
       returning id, name`,
      [workspaceId, JSON.stringify(labels)],
    ),
    importRefusals,
  );
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

export interface ImportedTaskRow {
  source_id: string;
  title: string;
  description: string;
  status: TaskStatus;
  priority: TaskPriority;
  assignee_id: string | null;
  due_date: string | null;
  label_ids: string[];
}

/**
 * Inserts the tasks into the project, in their order: each at the end of its column, in one statement.
 * Positions are the keys after the column's last (private.order_keys_after); numbers, events and the
 * project's count come from the tasks' triggers as for any task. Answers each new task's id by source id.
 */
export async function insertImportedTasks(
  sql: Sql,
  projectId: string,
  tasks: readonly ImportedTaskRow[],
): Promise<Map<string, string>> {
  const rows = await refusing(
    sql.query<{ id: string; source_id: string }>(
      `with input as (
         select x.*, row_number() over (partition by x.status order by x.ord) as place
         from jsonb_to_recordset($2::jsonb) as x (source_id text, title text, description text,
           status text, priority public.task_priority, assignee_id uuid, due_date date, label_ids uuid[], ord bigint)
       ),
       keys as materialized (
         select g.status, k.position, k.place
         from (select status, count(*)::integer as n from input group by status) g
         cross join lateral unnest(private.order_keys_after(
           (select max(t.position) from public.tasks t where t.project_id = $1 and t.status = g.status), g.n
         )) with ordinality as k (position, place)
       )
       insert into public.tasks (project_id, title, description, status, priority, assignee_id, due_date,
         label_ids, position, source_id, created_by)
       select $1, i.title, i.description, i.status, i.priority, i.assignee_id, i.due_date, i.label_ids,
         k.position, i.source_id, (select auth.uid())
       from input i join keys k on k.status = i.status and k.place = i.place
       order by i.ord
       returning id, source_id`,
      [projectId, JSON.stringify(tasks.map((task, ord) => ({ ...task, ord })))],
    ),
    importRefusals,
  );
  return new Map(rows.map((row) => [row.source_id, row.id]));
}

/** The comments, each written by the caller (imports.service puts the original author in the body). */
export async function insertImportedComments(
  sql: Sql,
  comments: readonly { task_id: string; body: string }[],
): Promise<void> {
  if (comments.length === 0) return;
  await refusing(
    sql.query(
      `insert into public.comments (task_id, author_id, body)
       select x.task_id, (select auth.uid()), x.body
       from jsonb_to_recordset($1::jsonb) as x (task_id uuid, body text, ord bigint)
       order by x.ord`,
      [JSON.stringify(comments.map((comment, ord) => ({ ...comment, ord })))],
    ),
    importRefusals,
  );
}

/** The import as the API answers it. */
const IMPORT_JSON = `jsonb_build_object('object', 'import', 'id', i.id, 'source', i.source, 'status', 'succeeded',
  'projects', i.projects, 'counts', i.counts, 'problems', i.problems, 'created_by', i.created_by,
  'created_at', private.iso_timestamp(i.created_at)) as import`;

export interface ImportRecord {
  source: ImportSourceKind;
  projects: Import['projects'];
  counts: Import['counts'];
  problems: Import['problems'];
}

export async function insertImport(sql: Sql, workspaceId: string, record: ImportRecord): Promise<Import> {
  const [row] = await sql.query<{ import: Import }>(
    `insert into public.imports as i (workspace_id, source, projects, counts, problems)
     values ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb) returning ${IMPORT_JSON}`,
    [
      workspaceId,
      record.source,
      JSON.stringify(record.projects),
      JSON.stringify(record.counts),
      JSON.stringify(record.problems),
    ],
  );
  if (!row) throw new Error('insert into imports returned no row');
  return row.import;
}

/** The import `id` of the caller's workspace `slug`; RLS shows it to admins only. */
export async function selectImport(sql: Sql, slug: string, id: string): Promise<Import | undefined> {
  const [row] = await sql.query<{ import: Import }>(
    `select ${IMPORT_JSON} from public.imports i where i.workspace_id = ${callerWorkspaceIdAt('$1')} and i.id = $2`,
    [slug, id],
  );
  return row?.import;
}
