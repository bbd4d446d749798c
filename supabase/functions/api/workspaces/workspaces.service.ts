/**
 * Workspaces: create (the caller becomes the owner), list the caller's, read, change (admins; turning
 * `require_mfa` on needs a proven second factor) and delete (owners).
 */
import type { CreateWorkspace, UpdateWorkspace, Workspace } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import {
  enterWorkspace,
  readInWorkspace,
  requireRole,
  workspaceNotFound,
  type WorkspaceAccess,
} from './workspace-access.ts';
import {
  deleteWorkspace as deleteWorkspaceRow,
  insertWorkspace,
  selectMyWorkspaces,
  selectWorkspace,
  selectWorkspaceVersion,
  updateWorkspace as updateWorkspaceRow,
  type WorkspaceRow,
} from './workspaces.queries.ts';

export function createWorkspace(
  db: Database,
  principal: Principal,
  request: CreateWorkspace,
): Promise<Workspace> {
  return db.asCaller(principal, async (sql) => {
    const created = await insertWorkspace(asLastStatement(sql), request);
    return toWorkspace(created);
  });
}

export function listWorkspaces(
  db: Database,
  principal: Principal,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Workspace>> {
  return db.asCaller(principal, async (sql) =>
    pageOf(await selectMyWorkspaces(asLastStatement(sql), page), page, toWorkspace),
  );
}

export function getWorkspace(db: Database, principal: Principal, slug: string): Promise<Workspace> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectWorkspace(last, { slug }),
    );
    if (!found) throw workspaceNotFound(access.slug);
    return toWorkspace(found);
  });
}

export async function updateWorkspace(
  db: Database,
  principal: Principal,
  slug: string,
  changes: UpdateWorkspace,
  expected: ExpectedVersion,
): Promise<Workspace> {
  const { access, updated } = await db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'admin', "change the workspace's settings");
    if (changes.require_mfa === true && !access.requireMfa) requireProvenSecondFactor(principal);
    const last = asLastStatement(sql);
    if (Object.keys(changes).length === 0)
      return { access, updated: await unchanged(last, access, expected) };
    return { access, updated: await updateWorkspaceRow(last, access.workspaceId, changes, expected) };
  });
  if (updated) return toWorkspace(updated);
  // Another version (or gone): the write's transaction is over, so the version is read in one of its own.
  throw conditionalWriteFailure(await currentVersion(db, principal, access));
}

/** Answers whether the workspace had attachments, whose objects are then queued for removal. */
export async function deleteWorkspace(
  db: Database,
  principal: Principal,
  slug: string,
  expected: ExpectedVersion,
): Promise<{ queuedFiles: boolean }> {
  const { access, deleted } = await db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'owner', 'delete the workspace');
    return { access, deleted: await deleteWorkspaceRow(asLastStatement(sql), access.workspaceId, expected) };
  });
  if (deleted) return { queuedFiles: deleted.had_files };
  throw conditionalWriteFailure(await currentVersion(db, principal, access));
}

/** The workspace's version as it is now, in a transaction of its own (after a write's has ended). */
function currentVersion(
  db: Database,
  principal: Principal,
  access: WorkspaceAccess,
): Promise<number | undefined> {
  return db.asCaller(principal, (sql) => selectWorkspaceVersion(asLastStatement(sql), access.workspaceId));
}

/**
 * Nobody may lock a workspace behind a factor they have not proven: turning the rule on takes a session
 * that verified its second factor. A token's aal2 only says its person has a factor, so it is refused.
 */
function requireProvenSecondFactor(principal: Principal): void {
  if (principal.aal === 'aal2' && !principal.api_token) return;
  throw new AppError(
    'mfa_required',
    principal.api_token
      ? 'Turning on require_mfa needs a signed-in session that has verified a second factor; API tokens cannot.'
      : 'Turning on require_mfa needs a session that has verified a second factor: verify yours, then try again.',
  );
}

/** An empty merge patch changes nothing, but still answers If-Match as a write would. */
async function unchanged(
  sql: Sql,
  access: WorkspaceAccess,
  expected: ExpectedVersion,
): Promise<WorkspaceRow> {
  const current = await found(sql, access);
  requireExpectedVersion(current.version, expected);
  return current;
}

async function found(sql: Sql, access: WorkspaceAccess): Promise<WorkspaceRow> {
  const row = await selectWorkspace(sql, access.workspaceId);
  if (!row) throw workspaceNotFound(access.slug);
  return row;
}

export function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    object: 'workspace',
    id: row.id,
    slug: row.slug,
    name: row.name,
    require_mfa: row.require_mfa,
    role: row.role,
    created_by: row.created_by,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
