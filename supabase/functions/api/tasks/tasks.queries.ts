/**
 * SQL for tasks. Runs as the caller: RLS shows only the tasks of their workspaces and lets only editors
 * (members and above) write them. Every statement answers a task as `private.task_json`, the one
 * definition of the API's Task shape (events carry the same). Triggers number new tasks, keep
 * `completed_at`, refuse writes to archived projects and log events.
 */
import type { z } from 'zod';
import type { Task, TaskPriority, TaskStatus } from '../../_shared/api-types.ts';
import { customPlanned, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { TASKS_PER_PROJECT } from '../../_shared/limits.ts';
import { rowsToFetch, type PageRequest } from '../../_shared/pages.ts';
import { raisedErrorCode, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import type { DeletedWithFiles } from '../files/storage-removals.queries.ts';
import { projectArchived } from '../projects/project-access.ts';
import {
  callerWorkspaceIdAt,
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import type { TaskSortKey, WorkspaceTaskSortKey } from './task-order.ts';
import type { TaskSort } from './tasks.schemas.ts';
import type { CreateTaskBodySchema } from './tasks.schemas.ts';

/** A task, with what a route that found it by id needs to enter its workspace and guard its project. */
export interface TaskRow extends Record<string, unknown> {
  workspace_id: string;
  project_key: string;
  project_archived_at: Date | null;
  task: Task;
}

export interface ListedTaskRow extends Record<string, unknown> {
  task: Task;
  sort_key: TaskSortKey;
}

/** A task to insert: the create body once validated, its defaults filled in. */
export type NewTask = z.output<typeof CreateTaskBodySchema>;

export type TaskChanges = Partial<NewTask>;

/** What a list keeps: each filter given holds (null: not filtered on). */
export interface TaskFilters {
  statuses: readonly TaskStatus[] | null;
  priorities: readonly TaskPriority[] | null;
  /** Unassigned tasks are kept (with those of `assigneeIds`, if any). */
  unassigned: boolean;
  /** Tasks assigned to any of these users are kept (with unassigned ones, if `unassigned`). */
  assigneeIds: readonly string[] | null;
  /** Tasks having any of these labels. */
  labelIds: readonly string[] | null;
  /** Found in the title or the description, whatever the case. */
  text: string | null;
  dueBefore: string | null;
  dueAfter: string | null;
}

const TASK_WITH_PROJECT = `select t.workspace_id, p.key as project_key, p.archived_at as project_archived_at,
  private.task_json(t, p.key) as task
  from public.tasks t join public.projects p on p.id = t.project_id`;

export async function selectTask(sql: Sql, id: string): Promise<TaskRow | undefined> {
  const [row] = await sql.query<TaskRow>(`${TASK_WITH_PROJECT} where t.id = $1`, [id]);
  return row;
}

/**
 * The task `ENG-42` of the caller's workspace `slug`. `ENG` is the key of one of its projects now, or
 * else a key a project had before (private.project_former_keys): old task keys keep resolving.
 */
export async function selectTaskByKey(
  sql: Sql,
  slug: string,
  projectKey: string,
  number: number,
): Promise<TaskRow | undefined> {
  const [row] = await sql.query<TaskRow>(
    `with workspace as (${callerWorkspaceIdAt('$1')}),
     keyed as (select coalesce(
       (select c.id from public.projects c where c.workspace_id = (table workspace) and c.key = $2),
       (select f.project_id from private.project_former_keys f
        where f.workspace_id = (table workspace) and f.key = $2)) as project_id)
     ${TASK_WITH_PROJECT} where p.id = (select project_id from keyed) and t.number = $3`,
    [slug, projectKey, number],
  );
  return row;
}

export async function selectTaskVersion(sql: Sql, id: string): Promise<number | undefined> {
  const [row] = await sql.query<{ version: number }>('select version from public.tasks where id = $1', [id]);
  return row?.version;
}

/** Whether the user may be assigned tasks in the workspace: a member who is not a viewer. */
export async function isAssignable(
  sql: Sql,
  workspace: WorkspaceReference,
  userId: string,
): Promise<boolean> {
  const [row] = await sql.query<{ assignable: boolean }>(
    `select exists (
       select 1 from public.memberships
       where workspace_id = ${workspaceIdOf(workspace, '$1')} and user_id = $2 and role <> 'viewer'
     ) as assignable`,
    [workspaceValueOf(workspace), userId],
  );
  return row?.assignable ?? false;
}

/** Which of `ids` are labels of the workspace. */
export async function selectLabelIdsOf(
  sql: Sql,
  workspace: WorkspaceReference,
  ids: readonly string[],
): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select id from public.labels where workspace_id = ${workspaceIdOf(workspace, '$1')} and id = any($2::uuid[])`,
    [workspaceValueOf(workspace), ids],
  );
  return rows.map((row) => row.id);
}

/**
 * Inserts the task into the project (whose key names it in a refusal) at the end of its column: run it under
 * the column's lock (lockColumnAt), so that no other task takes the same key.
 */
export async function insertTask(
  sql: Sql,
  project: { id: string; key: string },
  task: NewTask,
): Promise<Task> {
  const statement = sql.query<{ task: Task }>(
    `insert into public.tasks as t
       (project_id, title, description, status, priority, assignee_id, due_date, label_ids, position, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, ${columnEndSql('$1', '$4::text')}, (select auth.uid()))
     returning private.task_json(t) as task`,
    [
      project.id,
      task.title,
      task.description,
      task.status,
      task.priority,
      task.assignee_id,
      task.due_date,
      task.label_ids,
    ],
  );
  const [row] = await refusing(statement, taskWriteRefusals(project.key));
  if (!row) throw new Error('insert into tasks returned no row');
  return row.task;
}

/**
 * Applies the changes if the task is at an expected version; undefined when no row changed. A task
 * whose status changes goes to the end of its new column (run it under that column's lock); one whose
 * status stays keeps its place. Decided on the row as it is when written, not as read. `projectKey` names
 * the task's project in a refusal.
 */
export async function updateTask(
  sql: Sql,
  id: string,
  changes: TaskChanges,
  expected: ExpectedVersion,
  projectKey: string,
): Promise<Task | undefined> {
  const statement = sql.query<{ task: Task }>(
    `update public.tasks t set
       title = coalesce($2, title),
       description = coalesce($3, description),
       status = coalesce($4::text, status),
       position = case
         when $4::text is distinct from status and $4::text is not null
           then ${columnEndSql('t.project_id', '$4::text', 't.id')}
         else position
       end,
       priority = coalesce($5::public.task_priority, priority),
       assignee_id = case when $6::boolean then $7::uuid else assignee_id end,
       due_date = case when $8::boolean then $9::date else due_date end,
       label_ids = coalesce($10::uuid[], label_ids)
     where id = $1 and ($11::integer[] is null or version = any($11::integer[]))
     returning private.task_json(t) as task`,
    [
      id,
      changes.title ?? null,
      changes.description ?? null,
      changes.status ?? null,
      changes.priority ?? null,
      changes.assignee_id !== undefined,
      changes.assignee_id ?? null,
      changes.due_date !== undefined,
      changes.due_date ?? null,
      changes.label_ids ?? null,
      expected,
    ],
  );
  const [row] = await refusing(statement, taskWriteRefusals(projectKey));
  return row?.task;
}

/**
 * Deletes the task if it is at an expected version; undefined if no row was deleted, else whether it had
 * attachments, whose objects its deletion queued for removal (they go with it, after the RETURNING).
 */
export async function deleteTask(
  sql: Sql,
  id: string,
  expected: ExpectedVersion,
  projectKey: string,
): Promise<DeletedWithFiles | undefined> {
  const [row] = await refusing(
    sql.query<DeletedWithFiles>(
      `delete from public.tasks t
       where t.id = $1 and ($2::integer[] is null or t.version = any($2::integer[]))
       returning exists (select 1 from public.attachments a where a.task_id = t.id) as had_files`,
      [id, expected],
    ),
    taskWriteRefusals(projectKey),
  );
  return row;
}

/** What the database's own checks refused, as the API says it (they back up the service's checks). */
export const taskWriteRefusals =
  (projectKey: string): Refusals =>
  (error) => {
    switch (raisedErrorCode(error)) {
      case 'project_archived':
        return projectArchived(projectKey);
      case 'limit_reached':
        return new AppError(
          'limit_reached',
          `The project "${projectKey}" already has ${TASKS_PER_PROJECT} tasks, the limit (tasks_per_project). Delete some first.`,
        );
      case 'validation_failed':
        return new AppError(
          'validation_failed',
          'The assignee or a label changed meanwhile and is no longer valid here: read them again.',
        );
      default:
        return undefined;
    }
  };

interface SortSql {
  /** The expressions the sort orders by; the last is unique per task of what is listed. */
  columns: readonly string[];
  /** Their types, to cast the cursor's values to. */
  types: readonly string[];
  descending: boolean;
}

/** Columns left to right by rank: the board index's leading expression after the project. */
const RANK = 'private.task_status_rank(t.status)';

const SORTS: Readonly<Record<TaskSort, SortSql>> = {
  position: { columns: [RANK, 't.position'], types: ['integer', 'text'], descending: false },
  updated_at: { columns: ['t.updated_at', 't.id'], types: ['timestamptz', 'uuid'], descending: false },
  '-updated_at': { columns: ['t.updated_at', 't.id'], types: ['timestamptz', 'uuid'], descending: true },
  created_at: { columns: ['t.created_at', 't.id'], types: ['timestamptz', 'uuid'], descending: false },
  '-created_at': { columns: ['t.created_at', 't.id'], types: ['timestamptz', 'uuid'], descending: true },
  priority: { columns: ['t.priority', 't.id'], types: ['public.task_priority', 'uuid'], descending: false },
  '-priority': { columns: ['t.priority', 't.id'], types: ['public.task_priority', 'uuid'], descending: true },
  // Tasks without a due date come last both ways.
  due_date: {
    columns: [`coalesce(t.due_date, 'infinity'::date)`, 't.id'],
    types: ['date', 'uuid'],
    descending: false,
  },
  '-due_date': {
    columns: [`coalesce(t.due_date, '-infinity'::date)`, 't.id'],
    types: ['date', 'uuid'],
    descending: true,
  },
};

/** Across a workspace, board order is project by project (by key), a position being unique in its column. */
const WORKSPACE_SORTS: Readonly<Record<TaskSort, SortSql>> = {
  ...SORTS,
  position: { columns: ['p.key', RANK, 't.position'], types: ['text', 'integer', 'text'], descending: false },
};

/** A project by its id, or by its address, for a statement sent before its id is known. */
export type ProjectReference = string | { slug: string; key: string };
/** The projects of the caller's workspace `slug`: those keyed `projectKeys`, or all of them (null). */
export interface WorkspaceProjects {
  slug: string;
  projectKeys: readonly string[] | null;
}
/** What a list or a count reads: one project's tasks, or those of some projects of a workspace. */
export type TaskScope = ProjectReference | WorkspaceProjects;

const isWorkspaceProjects = (scope: TaskScope): scope is WorkspaceProjects =>
  typeof scope !== 'string' && 'projectKeys' in scope;

/** Adds a value to a statement's parameters; its placeholder (`$n`). */
type Bind = (value: unknown) => string;

function parameters(): { values: unknown[]; bind: Bind } {
  const values: unknown[] = [];
  return { values, bind: (value) => `$${values.push(value)}` };
}

/** The id of the project whose key is `keyParam` in the caller's workspace whose slug is `slugParam`. */
const projectIdAt = (keyParam: string, slugParam: string): string =>
  `(select private.caller_project_id(${slugParam}, ${keyParam}))`;

/** Whether the projects row `alias` is one of the scope's. */
function inScope(scope: TaskScope, alias: string, bind: Bind): string {
  if (typeof scope === 'string') return `${alias}.id = ${bind(scope)}`;
  const workspace = `${alias}.workspace_id = ${callerWorkspaceIdAt(bind(scope.slug))}`;
  if ('key' in scope) return `${alias}.key = ${bind(scope.key)} and ${workspace}`;
  const keys = bind(scope.projectKeys);
  return `${workspace} and (${keys}::text[] is null or ${alias}.key = any(${keys}::text[]))`;
}

/**
 * What each filter given asks of the task `t`, as conditions joined by `and`. The text is found by id from
 * the trigram indexes (private.task_ids_matching, per project searched), which RLS keeps the list itself
 * from using (`ilike` is not leakproof). Written only when there is a pattern: inside an `or` the ids
 * would be one more filter on every task instead of a join.
 */
function filtersOf(filters: TaskFilters, searched: TaskScope, bind: Bind): string {
  const statuses = bind(filters.statuses);
  const priorities = bind(filters.priorities);
  const unassigned = bind(filters.unassigned);
  const assigneeIds = bind(filters.assigneeIds);
  const labelIds = bind(filters.labelIds);
  const dueBefore = bind(filters.dueBefore);
  const dueAfter = bind(filters.dueAfter);
  const conditions = [
    // By rank, so that a column's page of the board is read from the board index in order.
    `(${statuses}::text[] is null or private.task_status_rank(t.status) = any (
       array(select private.task_status_rank(s) from unnest(${statuses}::text[]) s)))`,
    `(${priorities}::public.task_priority[] is null or t.priority = any(${priorities}::public.task_priority[]))`,
    `((not ${unassigned}::boolean and ${assigneeIds}::uuid[] is null)
       or (${unassigned}::boolean and t.assignee_id is null)
       or t.assignee_id = any(${assigneeIds}::uuid[]))`,
    // Overlap (`&&`), which the GIN index on label_ids answers.
    `(${labelIds}::uuid[] is null or t.label_ids && ${labelIds}::uuid[])`,
    `(${dueBefore}::date is null or t.due_date < ${dueBefore}::date)`,
    `(${dueAfter}::date is null or t.due_date > ${dueAfter}::date)`,
  ];
  if (filters.text !== null) conditions.push(matchingText(searched, containing(filters.text), bind));
  return conditions.join('\n       and ');
}

function matchingText(scope: TaskScope, pattern: string, bind: Bind): string {
  if (typeof scope === 'string')
    return `t.id in (select private.task_ids_matching(${bind(scope)}, ${bind(pattern)}::text))`;
  return `t.id in (select private.task_ids_matching(sp.id, ${bind(pattern)}::text)
       from public.projects sp where ${inScope(scope, 'sp', bind)})`;
}

/**
 * Takes the lock of the project's column (as lockColumn), by address, for a statement sent before the
 * project's id is known; the project is the caller's to find (RLS), and an unknown one locks nothing.
 */
export async function lockColumnAt(
  sql: Sql,
  project: { slug: string; key: string },
  status: TaskStatus,
): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('task_column:' || ${projectIdAt('$1', '$2')}::text || ':' || $3::text, 0))`,
    [project.key, project.slug, status],
  );
}

/**
 * The key after the last of the column `status` of the project `projectId` (SQL expressions), `exceptId`'s
 * left out: where a task arriving in the column goes (fractional-indexing's key, private.order_key_between).
 */
export function columnEndSql(projectId: string, status: string, exceptId?: string): string {
  const except = exceptId ? ` and c.id <> ${exceptId}` : '';
  return `private.order_key_between(
    (select max(c.position) from public.tasks c where c.project_id = ${projectId} and c.status = ${status}${except}),
    null)`;
}

/** Where a list across a workspace's projects reads, and each task's project key: the joined project's. */
function acrossWorkspace(scope: WorkspaceProjects, bind: Bind) {
  return {
    from: 'public.tasks t join public.projects p on p.id = t.project_id',
    where: inScope(scope, 'p', bind),
    projectKey: 'p.key',
  };
}

/** Where a project's list reads: its id is a parameter or one initPlan, and so is its key. */
function inProject(scope: ProjectReference, bind: Bind) {
  if (typeof scope === 'string') {
    const id = bind(scope);
    return {
      from: 'public.tasks t',
      where: `t.project_id = ${id}`,
      projectKey: `(select p.key from public.projects p where p.id = ${id})`,
    };
  }
  const key = bind(scope.key);
  return {
    from: 'public.tasks t',
    where: `t.project_id = ${projectIdAt(key, bind(scope.slug))}`,
    projectKey: `${key}::text`,
  };
}

/**
 * A page of the tasks of `scope` that pass the filters, in the order `sort` names. Across a workspace
 * (WorkspaceProjects) the `position` sort goes project by project, and its cursor carries the key.
 */
export function selectTasks(
  sql: Sql,
  scope: TaskScope,
  filters: TaskFilters,
  sort: TaskSort,
  page: PageRequest<TaskSortKey | WorkspaceTaskSortKey>,
): Promise<ListedTaskRow[]> {
  const { values, bind } = parameters();
  const acrossProjects = isWorkspaceProjects(scope);
  const { columns, types, descending } = (acrossProjects ? WORKSPACE_SORTS : SORTS)[sort];
  const direction = descending ? 'desc' : 'asc';
  const after = page.cursor?.slice(1) ?? columns.map(() => null);
  const bound = after.map((value, index) => `${bind(value)}::${types[index] ?? 'text'}`);
  const cursor = `(${bound[0] ?? 'null'} is null or (${columns.join(', ')}) ${descending ? '<' : '>'} (${bound.join(', ')}))`;
  const { from, where, projectKey } = isWorkspaceProjects(scope)
    ? acrossWorkspace(scope, bind)
    : inProject(scope, bind);
  const text = `select private.task_json(t, ${projectKey}) as task,
       json_build_array('${sort}'::text, ${columns.join(', ')}) as sort_key
     from ${from}
     where ${where}
       and ${filtersOf(filters, scope, bind)}
       and ${cursor}
     order by ${columns.map((column) => `${column} ${direction}`).join(', ')}
     limit ${bind(rowsToFetch(page))}`;
  return sql.query<ListedTaskRow>(plannedFor(filters, text), values);
}

/** How many tasks of a project pass the filters in one status (null with a count of 0: none at all). */
export interface TaskCountRow extends Record<string, unknown> {
  project_key: string;
  status: TaskStatus | null;
  count: number;
}

/**
 * How many of the scope's tasks pass the filters, per project and status, in one grouped statement:
 * every project of the scope has a row, in key order, even when no task of it passes.
 */
export function selectTaskCounts(
  sql: Sql,
  scope: { slug: string; key: string } | WorkspaceProjects,
  filters: TaskFilters,
): Promise<TaskCountRow[]> {
  const { values, bind } = parameters();
  const text = `select p.key as project_key, t.status, count(t.id)::integer as count
     from public.projects p
     left join public.tasks t on t.project_id = p.id
       -- The scope's ids once more, as one initPlan: the tasks are then read by project from an index.
       and t.project_id = any (array(select sp.id from public.projects sp where ${inScope(scope, 'sp', bind)}))
       and ${filtersOf(filters, scope, bind)}
     where ${inScope(scope, 'p', bind)}
     group by p.key, t.status
     order by p.key`;
  return sql.query<TaskCountRow>(plannedFor(filters, text), values);
}

/**
 * A text search is planned for its pattern every time (docs/decisions/0027): a generic plan of it runs
 * the trigram search several times slower, past the statement timeout on a hostile pattern.
 */
const plannedFor = (filters: TaskFilters, text: string): string =>
  filters.text === null ? text : customPlanned(text);

/** An ILIKE pattern matching text that contains `text` as typed: its `%`, `_` and `\` are plain characters. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
