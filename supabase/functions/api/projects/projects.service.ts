/**
 * Projects: create (admins, within PROJECTS_PER_WORKSPACE), list (archived ones on request), read, change
 * or archive (admins; an archived project accepts nothing but being unarchived) and delete (admins).
 */
import type { CreateProject, Project, UpdateProject } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import type { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  isExpectedVersion,
  preconditionFailed,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import type { ProjectAddress } from '../http/path-params.ts';
import {
  enterWorkspace,
  enterWorkspaceWith,
  readInWorkspace,
  requireRole,
} from '../workspaces/workspace-access.ts';
import { projectArchived, projectFound, projectNotFound, requireActiveProject } from './project-access.ts';
import {
  deleteProject as deleteProjectRow,
  insertProject,
  selectProjectAt,
  selectProjects,
  updateProject as updateProjectRow,
} from './projects.queries.ts';

export function createProject(
  db: Database,
  principal: Principal,
  slug: string,
  request: CreateProject,
): Promise<Project> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'admin', 'create projects');
    return insertProject(asLastStatement(sql), access.workspaceId, request);
  });
}

export function listProjects(
  db: Database,
  principal: Principal,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
  includeArchived: boolean,
): Promise<Page<Project>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectProjects(last, slug, page, includeArchived),
    );
    return pageOf(found, page, (row) => row.project);
  });
}

export function getProject(db: Database, principal: Principal, address: ProjectAddress): Promise<Project> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      selectProjectAt(last, address.slug, address.key),
    );
    return projectFound(found, address.key);
  });
}

/**
 * In two round trips: the access and the project, then the write with its COMMIT. What the write's
 * guards would refuse (no such project, another version, archived) is judged on the project as read.
 */
export async function updateProject(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  changes: UpdateProject,
  expected: ExpectedVersion,
): Promise<Project> {
  const updated = await db.asCaller(principal, async (sql) => {
    const { access, project } = await enterProject(sql, principal, address, 'change projects');
    if (Object.keys(changes).length === 0) return unchanged(project, address.key, expected);
    const unchanging = onlyUnarchives(changes);
    if (!project || !isExpectedVersion(project.version, expected) || (project.archived && !unchanging)) {
      throw whyUnchanged(project, address.key, expected);
    }
    const last = asLastStatement(sql);
    return updateProjectRow(last, access.workspaceId, address.key, changes, expected, unchanging);
  });
  if (updated) return updated;
  // The project changed or went between the read and the write, and the write's transaction is over.
  throw whyUnchanged(await currentProject(db, principal, address), address.key, expected);
}

/** Answers whether the project's tasks had attachments, whose objects are then queued for removal. */
export async function deleteProject(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
  expected: ExpectedVersion,
): Promise<{ queuedFiles: boolean }> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const { access, project } = await enterProject(sql, principal, address, 'delete projects');
    if (!project || !isExpectedVersion(project.version, expected)) {
      throw conditionalWriteFailure(project?.version, projectNotFound(address.key).detail);
    }
    return deleteProjectRow(asLastStatement(sql), access.workspaceId, address.key, expected);
  });
  if (deleted) return { queuedFiles: deleted.had_files };
  const current = await currentProject(db, principal, address);
  throw conditionalWriteFailure(current?.version, projectNotFound(address.key).detail);
}

/** An admin's access to the workspace and its project (if any), read together in one round trip. */
async function enterProject(sql: Sql, principal: Principal, address: ProjectAddress, action: string) {
  const { access, found } = await enterWorkspaceWith(sql, principal, address.slug, () =>
    selectProjectAt(sql, address.slug, address.key),
  );
  requireRole(access, 'admin', action);
  return { access, project: found };
}

/** The project as it is now, in a transaction of its own (after a write's has ended). */
function currentProject(
  db: Database,
  principal: Principal,
  address: ProjectAddress,
): Promise<Project | undefined> {
  return db.asCaller(principal, (sql) => selectProjectAt(asLastStatement(sql), address.slug, address.key));
}

/** While archived, a project takes exactly `{"archived": false}` and nothing else. */
function onlyUnarchives(changes: UpdateProject): boolean {
  return changes.archived === false && Object.keys(changes).length === 1;
}

/** An empty merge patch changes nothing, but still answers If-Match and the archive rule as a write would. */
function unchanged(project: Project | undefined, key: string, expected: ExpectedVersion): Project {
  const current = projectFound(project, key);
  requireExpectedVersion(current.version, expected);
  requireActiveProject(current);
  return current;
}

/** Why the update changed no row: no such project, another version, or else the archive guard. */
function whyUnchanged(current: Project | undefined, key: string, expected: ExpectedVersion): AppError {
  if (!current) return projectNotFound(key);
  if (!isExpectedVersion(current.version, expected)) return preconditionFailed(current.version);
  return projectArchived(key);
}
