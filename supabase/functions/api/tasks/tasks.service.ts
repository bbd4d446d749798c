/**
 * Tasks: create in a project (members and above, at the end of their column, numbered by the database),
 * list with filters and sorts, read by id or by key, change (a merge patch; a new status goes to the end
 * of its column), move between neighbours, delete, and restore within 30 days. Only active projects'
 * tasks change (SPEC §4).
 */
import type { MoveTask, Task, TaskCounts } from '../../_shared/api-types.ts';
import { lastStatementOf, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import { projectFound, requireActiveProject, type ProjectAddress } from '../projects/project-access.ts';
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
import { afterLast, landingFor, REBALANCE_ABOVE, type Landing, type Placement } from './board-placement.ts';
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
import {
  lockColumnOfTask,
  moveTask as moveTaskRow,
  moveTaskBetweenNeighbours,
  selectNeighbourPositions,
  updatePositions,
} from './task-moves.queries.ts';
import {
  deleteTask as deleteTaskRow,
  insertTask,
  isAssignable,
  lockColumnEndAt,
  refusedAsArchived,
  selectLabelIdsOf,
  selectTask,
  selectTaskByKey,
  selectTaskCounts,
  selectTasks,
  selectTaskVersion,
  updateTask as updateTaskRow,
  type TaskRow,
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
    // end of the column, read under its lock. What the caller may not see, RLS leaves out of each.
    const [{ access: accessRow, project: projectRow }, assignable, knownLabels, lastPosition] =
      await Promise.all([
        selectProjectAccessAt(sql, address.slug, address.key),
        assigneeId ? isAssignable(sql, workspace, assigneeId) : true,
        labelIds && labelIds.length > 0 ? selectLabelIdsOf(sql, workspace, labelIds) : [],
        lockColumnEndAt(sql, address, request.status),
      ]);
    const access = admitToWorkspace(principal, address.slug, accessRow);
    requireRole(access, 'member', 'create tasks');
    const project = projectFound(projectRow, address.key);
    requireActiveProject(project);
    requireReferencesFound(assignable, labelIds ?? [], knownLabels);
    return insertTask(lastStatementOf(sql), project, request, afterLast(lastPosition));
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
    read(lastStatementOf(sql)),
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
    async (sql) => (await enterTaskWorkspace(sql, principal, id, lastStatementOf(sql))).task.task,
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
    // All the write waits for, in one round trip: the workspace, the new column's lock, then, read under
    // it, the task, the column's end and the references. What the caller may not see, RLS leaves out.
    const [accessRow, , found, columnEnd, references] = await Promise.all([
      selectWorkspaceAccessOfTask(sql, id),
      changes.status === undefined ? undefined : lockColumnOfTask(sql, id, changes.status),
      selectTask(sql, id),
      changes.status === undefined
        ? undefined
        : selectNeighbourPositions(sql, id, changes.status, null, null),
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
    // Computed whenever a status is sent: the row decides, as it is when written, whether it moves.
    const endPosition = columnEnd ? afterLast(columnEnd.before_previous) : null;
    return updateTaskRow(lastStatementOf(sql), id, changes, endPosition, expected, task.project_key);
  });
  if (updated) return updated;
  // The task changed or went between the read and the write, and the write's transaction is over.
  throw conditionalWriteFailure(await currentTaskVersion(db, principal, id), taskNotFound().detail);
}

/**
 * In one round trip after the credential's check: the column's lock, then the move itself, which finds
 * its landing in SQL (moveTaskBetweenNeighbours), with the COMMIT behind it. Its conditions hold every
 * rule of a move (RLS: the workspace, the role, MFA; the neighbours; If-Match; the archived project's
 * trigger), so when it moves the task, that is the answer. When it does not (a refusal, a task already
 * in place, a column to rebalance, a race), moveTaskUnderLock reads everything under the lock and
 * answers as before, in its order (404, 403, 409, 422, 412): those paths take its round trips too.
 */
export async function moveTask(
  db: Database,
  principal: Principal,
  id: string,
  move: MoveTask,
  expected: ExpectedVersion,
): Promise<Task> {
  const placement = { status: move.status, afterId: move.after_id ?? null, beforeId: move.before_id ?? null };
  const moved = await db
    .asCaller(principal, async (sql) => {
      const [, write] = await Promise.all([
        lockColumnOfTask(sql, id, move.status),
        outcomeOf(moveTaskBetweenNeighbours(lastStatementOf(sql), id, placement, expected, REBALANCE_ABOVE)),
      ]);
      if ('value' in write) return write.value;
      // The archived project's trigger: the reads below tell it, in their order (404 and 403 first).
      throw refusedAsArchived(write.error) ? LEFT_TO_THE_READS : write.error;
    })
    .catch((error: unknown) => {
      if (error === LEFT_TO_THE_READS) return undefined;
      throw error;
    });
  return moved ?? moveTaskUnderLock(db, principal, id, placement, expected);
}

/** A statement's result or its error, without throwing: to judge the error before the transaction's. */
const outcomeOf = <T>(statement: Promise<T>): Promise<{ value: T } | { error: unknown }> =>
  statement.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Thrown to roll the one-statement move back and leave the answer to moveTaskUnderLock. */
const LEFT_TO_THE_READS = Symbol('left to the reads');

/**
 * The move in two round trips: the workspace, the column's lock and, read under it, the task and its
 * neighbours, with the transaction's BEGIN; then the write with its COMMIT. A column to rebalance adds
 * its order's read and a COMMIT of its own (the rebalance must not outlive a move that failed its
 * If-Match).
 */
async function moveTaskUnderLock(
  db: Database,
  principal: Principal,
  id: string,
  placement: Placement,
  expected: ExpectedVersion,
): Promise<Task> {
  const moved = await db.asCaller(principal, async (sql) => {
    // The task and its neighbours are read after the lock (the statements run in order): where they
    // are now, not before the wait. A task the caller cannot see locks nothing.
    const [accessRow, , found, neighbours] = await Promise.all([
      selectWorkspaceAccessOfTask(sql, id),
      lockColumnOfTask(sql, id, placement.status),
      selectTask(sql, id),
      selectNeighbourPositions(
        sql,
        id,
        placement.status,
        placement.afterId ?? null,
        placement.beforeId ?? null,
      ),
    ]);
    const { access, task } = admitToTaskWorkspace(principal, accessRow, found);
    requireRole(access, 'member', 'move tasks');
    requireActiveTaskProject(task);
    const landing = await landingFor(sql, task.task, placement, neighbours);
    // Checked here too, on the task as read under the lock, so that a stale drag writes nothing.
    requireExpectedVersion(task.task.version, expected);
    if (landing === null) return task.task;
    return writeMove(sql, task, placement.status, landing, expected);
  });
  if (moved) return moved;
  // The task changed or went between the read and the write, and the write's transaction is over.
  throw conditionalWriteFailure(await currentTaskVersion(db, principal, id), taskNotFound().detail);
}

/**
 * The move's write; undefined when no row changed, after its COMMIT. With a rebalance, the two writes
 * go together and a move that changed no row throws instead, so that the rebalance is undone too.
 */
async function writeMove(
  sql: Sql,
  { task, project_key: projectKey }: TaskRow,
  status: MoveTask['status'],
  landing: Landing,
  expected: ExpectedVersion,
): Promise<Task | undefined> {
  const { position, rebalanced } = landing;
  if (rebalanced === null) {
    return moveTaskRow(lastStatementOf(sql), task.id, status, position, expected, projectKey);
  }
  const [, moved] = await Promise.all([
    updatePositions(sql, task.project_id, rebalanced.ids, rebalanced.positions, projectKey),
    moveTaskRow(sql, task.id, status, position, expected, projectKey),
  ]);
  if (moved) return moved;
  throw conditionalWriteFailure(await selectTaskVersion(sql, task.id), taskNotFound().detail);
}

/** The task's version as the caller sees it now, in a transaction of its own; undefined if it is gone. */
const currentTaskVersion = (db: Database, principal: Principal, id: string): Promise<number | undefined> =>
  db.asCaller(principal, (sql) => selectTaskVersion(lastStatementOf(sql), id));

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
    return deleteTaskRow(lastStatementOf(sql), id, expected, task.project_key);
  });
  if (deleted) return { queuedFiles: deleted.had_files };
  throw conditionalWriteFailure(await currentTaskVersion(db, principal, id), taskNotFound().detail);
}

/**
 * Brings a deleted task back (docs/decisions/0038), in one round trip: private.restore_task holds the rules
 * of a delete (an editor, at the workspace's aal, while the project is active) and answers why not.
 */
export function restoreTask(db: Database, principal: Principal, id: string): Promise<Task> {
  return db.asCaller(principal, (sql) => restoreTaskRow(lastStatementOf(sql), id));
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
