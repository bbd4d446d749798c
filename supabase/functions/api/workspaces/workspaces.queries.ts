/**
 * SQL for workspaces. Runs as the caller: RLS shows only their workspaces and lets only admins change
 * one and owners delete it. Creation goes through `private.create_workspace`, which makes the caller
 * the owner in the same statement and holds the per-user limit (WORKSPACES_PER_USER, in SQL) under a lock.
 */
import type { WorkspaceRole } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { WORKSPACES_PER_USER } from '../../_shared/limits.ts';
import type { CreatedAtIdKey, PageRequest } from '../../_shared/pages.ts';
import { rowsToFetch } from '../../_shared/pages.ts';
import {
  brokenUniqueConstraint,
  raisedErrorCode,
  refusing,
  type Refusals,
} from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import type { DeletedWithFiles } from '../files/storage-removals.queries.ts';
import { workspaceIdOf, workspaceValueOf, type WorkspaceReference } from './workspace-access.queries.ts';

export interface WorkspaceRow extends Record<string, unknown> {
  id: string;
  slug: string;
  name: string;
  require_mfa: boolean;
  role: WorkspaceRole;
  created_by: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  sort_key: CreatedAtIdKey;
}

export interface WorkspaceChanges {
  name?: string | undefined;
  slug?: string | undefined;
  require_mfa?: boolean | undefined;
}

/** The unique constraint on workspaces.slug, as Postgres names it. */
const SLUG_CONSTRAINT = 'workspaces_slug_key';

const COLUMNS_BUT_ROLE = `w.id, w.slug, w.name, w.require_mfa, w.created_by, w.version, w.created_at,
  w.updated_at, json_build_array(w.created_at, w.id) as sort_key`;
const WORKSPACE_COLUMNS = `${COLUMNS_BUT_ROLE}, m.role`;
/** A WorkspaceRow's columns from a row `w` of `private.caller_workspaces()`'s shape, which has the role. */
export const CALLER_WORKSPACE_COLUMNS = `${COLUMNS_BUT_ROLE}, w.role`;
const MY_MEMBERSHIP =
  'join public.memberships m on m.workspace_id = w.id and m.user_id = (select auth.uid())';

/** Creates the workspace with the caller as its owner; the workspace, as its owner sees it. */
export async function insertWorkspace(
  sql: Sql,
  workspace: { name: string; slug: string },
): Promise<WorkspaceRow> {
  const [row] = await refusing(
    sql.query<WorkspaceRow>(
      `select ${COLUMNS_BUT_ROLE}, 'owner'::public.workspace_role as role
       from private.create_workspace($1, $2) w`,
      [workspace.name, workspace.slug],
    ),
    workspaceWriteRefusals(workspace.slug),
  );
  if (!row) throw new Error('private.create_workspace returned no row');
  return row;
}

/**
 * A page of the caller's workspaces, oldest first. Through `private.caller_workspaces()`, which RLS does
 * not filter: at aal1 the list still names the workspaces that require MFA (entering them is `403`).
 */
export function selectMyWorkspaces(sql: Sql, page: PageRequest<CreatedAtIdKey>): Promise<WorkspaceRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<WorkspaceRow>(
    `select ${CALLER_WORKSPACE_COLUMNS} from private.caller_workspaces() w
     where ($1::timestamptz is null or (w.created_at, w.id) > ($1::timestamptz, $2::uuid))
     order by w.created_at, w.id
     limit $3`,
    [createdAt, id, rowsToFetch(page)],
  );
}

export async function selectWorkspace(
  sql: Sql,
  workspace: WorkspaceReference,
): Promise<WorkspaceRow | undefined> {
  const [row] = await sql.query<WorkspaceRow>(
    `select ${WORKSPACE_COLUMNS} from public.workspaces w ${MY_MEMBERSHIP}
     where w.id = ${workspaceIdOf(workspace, '$1')}`,
    [workspaceValueOf(workspace)],
  );
  return row;
}

/** Applies the changes if the workspace is at an expected version; undefined when no row changed. */
export async function updateWorkspace(
  sql: Sql,
  id: string,
  changes: WorkspaceChanges,
  expected: ExpectedVersion,
): Promise<WorkspaceRow | undefined> {
  const [row] = await refusing(
    sql.query<WorkspaceRow>(
      `with changed as (
       update public.workspaces set
         name = coalesce($2, name),
         slug = coalesce($3, slug),
         require_mfa = coalesce($4, require_mfa)
       where id = $1 and ($5::integer[] is null or version = any($5::integer[]))
       returning *
     )
     select ${WORKSPACE_COLUMNS} from changed w ${MY_MEMBERSHIP}`,
      [id, changes.name ?? null, changes.slug ?? null, changes.require_mfa ?? null, expected],
    ),
    workspaceWriteRefusals(changes.slug),
  );
  return row;
}

/**
 * Deletes the workspace if it is at an expected version; undefined if no row was deleted, else whether it
 * had attachments, whose objects its deletion queued for removal.
 */
export async function deleteWorkspace(
  sql: Sql,
  id: string,
  expected: ExpectedVersion,
): Promise<DeletedWithFiles | undefined> {
  const [row] = await sql.query<DeletedWithFiles>(
    `delete from public.workspaces w
     where w.id = $1 and ($2::integer[] is null or w.version = any($2::integer[]))
     returning exists (select 1 from public.attachments a where a.workspace_id = w.id) as had_files`,
    [id, expected],
  );
  return row;
}

export async function selectWorkspaceVersion(sql: Sql, id: string): Promise<number | undefined> {
  const [row] = await sql.query<{ version: number }>('select version from public.workspaces where id = $1', [
    id,
  ]);
  return row?.version;
}

/** A slug another workspace has, or past WORKSPACES_PER_USER (`private.create_workspace`'s `limit_reached`). */
const workspaceWriteRefusals =
  (slug: string | undefined): Refusals =>
  (error) => {
    if (brokenUniqueConstraint(error) === SLUG_CONSTRAINT) {
      return new AppError(
        'slug_taken',
        `Another workspace already uses the slug "${slug}"; choose another.`,
        {
          errors: [{ path: 'body.slug', code: 'slug_taken', message: 'is already taken' }],
        },
      );
    }
    if (raisedErrorCode(error) !== 'limit_reached') return undefined;
    return new AppError(
      'limit_reached',
      `You have created ${WORKSPACES_PER_USER} workspaces, the limit (workspaces_per_user).`,
    );
  };
