/**
 * Tasks: create in a project (members and above, at the end of their column, numbered by the database),
 * list with filters and sorts, read by id or by key, change (a merge patch; a new status goes to the end
 * of its column), move between neighbours, delete, and restore within 30 days. Only active projects'
 * tasks change (docs/product.md#states).
 */
import type { MoveTask, Task, TaskCounts } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import type { ProjectAddress } from '../http/path-params.ts';
import { projectFound, requireActiveProject } from '../projects/project-access.ts';
import { selectProjectAccessAt } from '../projects/projects.queries.ts';
import {
  selectWorkspaceAccessOfTask,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import {
  admitToWorkspace,
  readInWorkspace,
  requireRole,
  requireWorkspaceSlug,
} from '../workspaces/workspace-access.ts';
import {
  admitToTaskWorkspace,
  enterTaskWorkspace,
  requireActiveTaskProject,
  taskNotFound,
} from './task-access.ts';
import { taskCountsOf } from './task-counts.ts';
import { restoreTask as restoreTaskRow } from './task-restore.queries.ts';
import type { TaskSortKey, WorkspaceTaskSortKey } from './task-order.ts';
import type { TaskSort } from './tasks.schemas.ts';
import { lockColumnOfTask, moveTask as moveTaskRow } from './task-moves.queries.ts';
import {
  deleteTask as deleteTaskRow,
  insertTask,
  isAssignable,
  lockColumnAt,
  selectLabelIdsOf,
  selectTask,
  selectTaskByKey,
  selectTaskCounts,
  selectTasks,
  selectTaskVersion,
  updateTask as updateTaskRow,
  type NewTask,
  type TaskChanges,
  type TaskFilters,
} from './tasks.queries.ts';

/** A task's key, `ENG-42`, taken apart. */
export interface TaskKey {
  projectKey: string;
  number: number;
}

/** The list's filters as asked for: each of `assignees` is a user id, `me` or `none`. */
export type TaskListFilters = Omit<TaskFilters, 'unassigned' | 'assigneeIds'> & {
  assignees: readonly string[] | null;
};

export function createTask(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  request: NewTask,
): Promise<Task> {
  requireWorkspaceSlug(address.slug);
  const workspace = { slug: address.slug };
  const { assignee_id: assigneeId, label_ids: labelIds } = request;
  return db.asCaller(principal, async (sql) => {
    // All the insert waits for, in one round trip: the workspace, the project, the references and the
    // column's lock, under which the insert finds the column's end. What the caller may not see, RLS
    // leaves out of each.
    const [{ access: accessRow, project: projectRow }, assignable, knownLabels] = await Promise.all([
      selectProjectAccessAt(sql, address.slug, address.key),
      assigneeId ? isAssignable(sql, workspace, assigneeId) : true,
      labelIds && labelIds.length > 0 ? selectLabelIdsOf(sql, workspace, labelIds) : [],
      lockColumnAt(sql, address, request.status),
    ]);
    const access = admitToWorkspace(principal, address.slug, accessRow);
    requireRole(access, 'member', 'create tasks');
    const project = projectFound(projectRow, address.key);
    requireActiveProject(project);
    requireReferencesFound(assignable, labelIds ?? [], knownLabels);
    return insertTask(asLastStatement(sql), project, request);
  });
}

export function listTasks(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  sort: TaskSort,
  filters: TaskListFilters,
  page: PageRequest<TaskSortKey>,
): Promise<Page<Task>> {
  const taskFilters = filtersFor(filters, principal);
  return db.asCaller(principal, async (sql) => {
    const rows = await readInProject(sql, principal, address, (last) =>
      selectTasks(last, address, taskFilters, sort, page),
    );
    return pageOf(rows, page, (row) => row.task);
  });
}

/** listTasks across the workspace's projects: all of them, or those keyed `projectKeys`. */
export function listWorkspaceTasks(
  db: Database,
  principal: Principal,
  slug: string,
  projectKeys: readonly string[] | null,
  sort: TaskSort,
  filters: TaskListFilters,
  page: PageRequest<WorkspaceTaskSortKey>,
): Promise<Page<Task>> {
  const scope = { slug, projectKeys };
  const taskFilters = filtersFor(filters, principal);
  return db.asCaller(principal, async (sql) => {
    const { found: rows } = await readInWorkspace(sql, principal, slug, (last) =>
      selectTasks(last, scope, taskFilters, sort, page),
    );
    return pageOf(rows, page, (row) => row.task);
  });
}

/** How many of the project's tasks pass the filters, per status, in one grouped statement. */
export function countProjectTasks(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  filters: TaskListFilters,
): Promise<TaskCounts> {
  const taskFilters = filtersFor(filters, principal);
  return db.asCaller(principal, async (sql) =>
    taskCountsOf(
      await readInProject(sql, principal, address, (last) => selectTaskCounts(last, address, taskFilters)),
    ),
  );
}

/** countProjectTasks across the workspace's projects, with each project's share. */
export function countWorkspaceTasks(
  db: Database,
  principal: Principal,
  slug: string,
  projectKeys: readonly string[] | null,
  filters: TaskListFilters,
): Promise<TaskCounts> {
  const scope = { slug, projectKeys };
  const taskFilters = filtersFor(filters, principal);
  return db.asCaller(principal, async (sql) => {
    const { found: rows } = await readInWorkspace(sql, principal, slug, (last) =>
      selectTaskCounts(last, scope, taskFilters),
    );
    return taskCountsOf(rows);
  });
}

/**
 * The workspace, the project and `read` in one round trip, the COMMIT behind `read`: RLS shows no project
 * and no task of a workspace the caller may not enter, so `read` waits for neither. Judged in order:
 * 404 workspace, 403 MFA, 404 project.
 */
async function readInProject<T>(
  sql: Sql,
  principal: Principal,
  address: ProjectAddress,
  read: (last: Sql) => Promise<T>,
): Promise<T> {
  requireWorkspaceSlug(address.slug);
  const [{ access: accessRow, project: projectRow }, found] = await Promise.all([
    selectProjectAccessAt(sql, address.slug, address.key),
    read(asLastStatement(sql)),
  ]);
  admitToWorkspace(principal, address.slug, accessRow);
  projectFound(projectRow, address.key);
  return found;
}

/** The filters as the queries take them: `assignees` resolved. */
function filtersFor(filters: TaskListFilters, principal: Principal): TaskFilters {
  const { assignees, ...rest } = filters;
  return { ...rest, ...assigneeFilter(assignees, principal) };
}

/** `me` is the caller, `none` nobody, anything else a user's id; a task matching any of them is kept. */
function assigneeFilter(
  assignees: readonly string[] | null,
  principal: Principal,
): Pick<TaskFilters, 'unassigned' | 'assigneeIds'> {
  if (assignees === null) return { unassigned: false, assigneeIds: null };
  const users = assignees
    .filter((assignee) => assignee !== 'none')
    .map((assignee) => (assignee === 'me' ? principal.user_id : assignee));
  return {
    unassigned: assignees.includes('none'),
    assigneeIds: users.length > 0 ? [...new Set(users)] : null,
  };
}

export function getTask(db: Database, principal: Principal, id: string): Promise<Task> {
  return db.asCaller(
    principal,
    async (sql) => (await enterTaskWorkspace(sql, principal, id, asLastStatement(sql))).task.task,
  );
}

export function getTaskByKey(db: Database, principal: Principal, slug: string, key: TaskKey): Promise<Task> {
  return db.asCaller(principal, async (sql) => {
    const { found: row } = await readInWorkspace(sql, principal, slug, (last) =>
      selectTaskByKey(last, slug, key.projectKey, key.number),
    );
    if (!row) {
      throw new AppError('not_found', `This workspace has no task ${key.projectKey}-${key.number}.`);
    }
    return row.task;
  });
}

/** In two round trips, a change of column too: the task, its workspace and what the write needs, then the write. */
export async function updateTask(
  db: Database,
  principal: Principal,
  id: string,
  changes: TaskChanges,
  expected: ExpectedVersion,
): Promise<Task> {
  const updated = await db.asCaller(principal, async (sql) => {
    // All the write waits for, in one round trip: the workspace, the new column's lock (under which the
    // write finds the column's end), the task and the references. What the caller may not see, RLS leaves out.
    const [accessRow, , found, references] = await Promise.all([
      selectWorkspaceAccessOfTask(sql, id),
      changes.status === undefined ? undefined : lockColumnOfTask(sql, id, changes.status),
      selectTask(sql, id),
      referencesOf(sql, { taskId: id }, changes),
    ]);
    const { access, task } = admitToTaskWorkspace(principal, accessRow, found);
    requireRole(access, 'member', 'change tasks');
    requireActiveTaskProject(task);
    if (Object.keys(changes).length === 0) {
      requireExpectedVersion(task.task.version, expected);
      return task.task;
    }
    requireReferencesFound(references.assignable, changes.label_ids ?? [], references.knownLabels);
    return updateTaskRow(asLastStatement(sql), id, changes, expected, task.project_key);
  });
  if (updated) return updated;
  // The task changed or went between the read and the write, and the write's transaction is over.
  throw conditionalWriteFailure(await currentTaskVersion(db, principal, id), taskNotFound().detail);
}

/**
 * In one round trip after the credential's check: `private.move_task` holds every rule of a move and
 * answers in the API's order (404, 403, 409, 422, 412), with the COMMIT behind it.
 */
export function moveTask(
  db: Database,
  principal: Principal,
  id: string,
  move: MoveTask,
  expected: ExpectedVersion,
): Promise<Task> {
  const placement = { status: move.status, afterId: move.after_id ?? null, beforeId: move.before_id ?? null };
  return db.asCaller(principal, (sql) =>
    moveTaskRow(asLastStatement(sql), id, placement, expected, principal.api_token !== undefined),
  );
}

/** The task's version as the caller sees it now, in a transaction of its own; undefined if it is gone. */
const currentTaskVersion = (db: Database, principal: Principal, id: string): Promise<number | undefined> =>
  db.asCaller(principal, (sql) => selectTaskVersion(asLastStatement(sql), id));

/**
 * In two round trips: the task and its workspace, then the delete with its COMMIT. Answers whether the task
 * had attachments, whose objects are then queued for removal.
 */
export async function deleteTask(
  db: Database,
  principal: Principal,
  id: string,
  expected: ExpectedVersion,
): Promise<{ queuedFiles: boolean }> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const { access, task } = await enterTaskWorkspace(sql, principal, id);
    requireRole(access, 'member', 'delete tasks');
    requireActiveTaskProject(task);
    return deleteTaskRow(asLastStatement(sql), id, expected, task.project_key);
  });
  if (deleted) return { queuedFiles: deleted.had_files };
  throw conditionalWriteFailure(await currentTaskVersion(db, principal, id), taskNotFound().detail);
}

/**
 * Brings a deleted task back (docs/decisions/0038), in one round trip: private.restore_task holds the rules
 * of a delete (an editor, at the workspace's aal, while the project is active) and answers why not.
 */
export function restoreTask(db: Database, principal: Principal, id: string): Promise<Task> {
  return db.asCaller(principal, (sql) => restoreTaskRow(asLastStatement(sql), id));
}

/**
 * Whether the assignee a write names may be assigned in the workspace, and which of its labels are the
 * workspace's (requireReferencesFound judges them): no statement for what the write does not name.
 */
async function referencesOf(
  sql: Sql,
  workspace: WorkspaceReference,
  fields: Pick<TaskChanges, 'assignee_id' | 'label_ids'>,
): Promise<{ assignable: boolean; knownLabels: string[] }> {
  const { assignee_id: assigneeId, label_ids: labelIds } = fields;
  const [assignable, knownLabels] = await Promise.all([
    !assigneeId || isAssignable(sql, workspace, assigneeId),
    labelIds && labelIds.length > 0 ? selectLabelIdsOf(sql, workspace, labelIds) : [],
  ]);
  return { assignable, knownLabels };
}

/** `422` naming the field, unless the assignee may be assigned and every label was found. */
function requireReferencesFound(
  assignable: boolean,
  labelIds: readonly string[],
  knownLabels: readonly string[],
): void {
  if (!assignable) {
    throw referenceRefused('assignee_id', 'must be a member of this workspace who is not a viewer');
  }
  if (knownLabels.length < labelIds.length) {
    throw referenceRefused('label_ids', 'must name labels of this workspace');
  }
}

function referenceRefused(field: 'assignee_id' | 'label_ids', message: string): AppError {
  return new AppError('validation_failed', undefined, {
    errors: [{ path: `body.${field}`, code: 'unknown_reference', message }],
  });
}
