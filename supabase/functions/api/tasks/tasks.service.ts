/**
 * Tasks: create in a project (members and above, at the end of their column, numbered by the database),
 * list with filters and sorts, read by id or by key, change (a merge patch; a new status goes to the end
 * of its column), move between neighbours, and delete. Only active projects' tasks change (SPEC §4).
 */
import type { components } from '../../../../api-spec/schema.d.ts';
import type { Database, Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { TASKS_PER_PROJECT } from '../../_shared/limits.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { raisedErrorCode } from '../../_shared/sql-errors.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import { findProject, projectArchived, requireActiveProject } from '../projects/project-access.ts';
import { enterWorkspace, requireRole, type WorkspaceAccess } from '../workspaces/workspace-access.ts';
import { endOfColumn, positionFor } from './board-placement.ts';
import { enterTaskWorkspace, findTask, requireActiveTaskProject, taskNotFound } from './task-access.ts';
import type { TaskSort, TaskSortKey } from './task-order.ts';
import {
  deleteTask as deleteTaskRow,
  insertTask,
  isAssignable,
  lockColumn,
  moveTask as moveTaskRow,
  selectLabelIdsOf,
  selectTaskByKey,
  selectTasks,
  selectTaskVersion,
  updateTask as updateTaskRow,
  type NewTask,
  type TaskChanges,
  type TaskFilters,
} from './tasks.queries.ts';

type Task = components['schemas']['Task'];
type MoveTask = components['schemas']['MoveTask'];

export interface ProjectAddress {
  slug: string;
  key: string;
}

/** A task's key, `ENG-42`, taken apart. */
export interface TaskKey {
  projectKey: string;
  number: number;
}

/** The list's filters as asked for: `assignee` is a user id, `me` or `none`. */
export type TaskListFilters = Omit<TaskFilters, 'unassigned' | 'assigneeId'> & {
  assignee: string | null;
};

export function createTask(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  request: NewTask,
): Promise<Task> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, address.slug);
    requireRole(access, 'member', 'create tasks');
    const project = await findProject(sql, access, address.key);
    requireActiveProject(project);
    await requireValidReferences(sql, access, request);
    const position = await endOfColumn(sql, project.id, request.status);
    try {
      return await insertTask(sql, project.id, request, position);
    } catch (error) {
      throw taskWriteRefusal(error, project.key);
    }
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
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, address.slug);
    const project = await findProject(sql, access, address.key);
    const { assignee, ...rest } = filters;
    const rows = await selectTasks(
      sql,
      project.id,
      { ...rest, ...assigneeFilter(assignee, principal) },
      sort,
      page,
    );
    return pageOf(rows, page, (row) => row.task);
  });
}

/** `assignee=me` is the caller, `none` nobody, anything else a user's id. */
function assigneeFilter(
  assignee: string | null,
  principal: Principal,
): Pick<TaskFilters, 'unassigned' | 'assigneeId'> {
  if (assignee === 'none') return { unassigned: true, assigneeId: null };
  return { unassigned: false, assigneeId: assignee === 'me' ? principal.user_id : assignee };
}

export function getTask(db: Database, principal: Principal, id: string): Promise<Task> {
  return db.asCaller(principal, async (sql) => (await enterTaskWorkspace(sql, principal, id)).task.task);
}

export function getTaskByKey(db: Database, principal: Principal, slug: string, key: TaskKey): Promise<Task> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    const row = await selectTaskByKey(sql, access.workspaceId, key.projectKey, key.number);
    if (!row) {
      throw new AppError('not_found', `This workspace has no task ${key.projectKey}-${key.number}.`);
    }
    return row.task;
  });
}

export function updateTask(
  db: Database,
  principal: Principal,
  id: string,
  changes: TaskChanges,
  expected: ExpectedVersion,
): Promise<Task> {
  return db.asCaller(principal, async (sql) => {
    const { access, task } = await enterTaskWorkspace(sql, principal, id);
    requireRole(access, 'member', 'change tasks');
    requireActiveTaskProject(task);
    if (Object.keys(changes).length === 0) {
      requireExpectedVersion(task.task.version, expected);
      return task.task;
    }
    await requireValidReferences(sql, access, changes);
    // Computed whenever a status is sent: the row decides, as it is when written, whether it moves.
    const endPosition =
      changes.status === undefined ? null : await endOfColumn(sql, task.task.project_id, changes.status);
    try {
      const updated = await updateTaskRow(sql, id, changes, endPosition, expected);
      if (updated) return updated;
    } catch (error) {
      throw taskWriteRefusal(error, task.project_key);
    }
    throw conditionalWriteFailure(await selectTaskVersion(sql, id), taskNotFound().detail);
  });
}

export function moveTask(
  db: Database,
  principal: Principal,
  id: string,
  move: MoveTask,
  expected: ExpectedVersion,
): Promise<Task> {
  return db.asCaller(principal, async (sql) => {
    const { access, task: found } = await enterTaskWorkspace(sql, principal, id);
    requireRole(access, 'member', 'move tasks');
    requireActiveTaskProject(found);
    await lockColumn(sql, found.task.project_id, move.status);
    // Read again under the lock: where the task and its neighbours are now, not before the wait.
    const { task } = await findTask(sql, id);
    const position = await positionFor(sql, task, {
      status: move.status,
      afterId: move.after_id,
      beforeId: move.before_id,
    });
    if (position === null) {
      requireExpectedVersion(task.version, expected);
      return task;
    }
    try {
      const moved = await moveTaskRow(sql, id, move.status, position, expected);
      if (moved) return moved;
    } catch (error) {
      throw taskWriteRefusal(error, found.project_key);
    }
    throw conditionalWriteFailure(await selectTaskVersion(sql, id), taskNotFound().detail);
  });
}

export function deleteTask(
  db: Database,
  principal: Principal,
  id: string,
  expected: ExpectedVersion,
): Promise<void> {
  return db.asCaller(principal, async (sql) => {
    const { access, task } = await enterTaskWorkspace(sql, principal, id);
    requireRole(access, 'member', 'delete tasks');
    requireActiveTaskProject(task);
    try {
      if (await deleteTaskRow(sql, id, expected)) return;
    } catch (error) {
      throw taskWriteRefusal(error, task.project_key);
    }
    throw conditionalWriteFailure(await selectTaskVersion(sql, id), taskNotFound().detail);
  });
}

/** The assignee and the labels a write names must be the workspace's: `422` naming the field otherwise. */
async function requireValidReferences(
  sql: Sql,
  access: WorkspaceAccess,
  fields: Pick<TaskChanges, 'assignee_id' | 'label_ids'>,
): Promise<void> {
  const { assignee_id: assigneeId, label_ids: labelIds } = fields;
  if (assigneeId && !(await isAssignable(sql, access.workspaceId, assigneeId))) {
    throw referenceRefused('assignee_id', 'must be a member of this workspace who is not a viewer');
  }
  if (labelIds && labelIds.length > 0) {
    const known = await selectLabelIdsOf(sql, access.workspaceId, labelIds);
    if (known.length < labelIds.length)
      throw referenceRefused('label_ids', 'must name labels of this workspace');
  }
}

function referenceRefused(field: 'assignee_id' | 'label_ids', message: string): AppError {
  return new AppError('validation_failed', undefined, {
    errors: [{ path: `body.${field}`, code: 'unknown_reference', message }],
  });
}

/** What the database's own checks refused, as the API says it (they back up the checks above). */
function taskWriteRefusal(error: unknown, projectKey: string): unknown {
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
      return error;
  }
}
