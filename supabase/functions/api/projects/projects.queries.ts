/**
 * SQL for projects. Runs as the caller: RLS shows only the projects of their workspaces and lets only
 * admins create, change and delete them. Projects are addressed by workspace and key. An insert past
 * PROJECTS_PER_WORKSPACE is refused by a trigger (P0001, hint `limit_reached`), under a lock of the workspace.
 */
import type { Project } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { PROJECTS_PER_WORKSPACE } from '../../_shared/limits.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import {
  brokenUniqueConstraint,
  raisedErrorCode,
  refusing,
  type Refusals,
} from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import type { DeletedWithFiles } from '../files/storage-removals.queries.ts';
import { callerWorkspaceIdAt, type WorkspaceAccessRow } from '../workspaces/workspace-access.queries.ts';

/** A project in a list: as the API answers it, with its place in the list. */
export interface ProjectListRow extends Record<string, unknown> {
  project: Project;
  sort_key: CreatedAtIdKey;
}

export interface NewProject {
  key: string;
  name: string;
  description: string;
}

export interface ProjectChanges {
  key?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  archived?: boolean | undefined;
}

/** The unique constraint on (workspace_id, key), as Postgres names it. */
const PROJECT_KEY_CONSTRAINT = 'projects_workspace_id_key_key';

/** The project as the API answers it, built by the same function as the event log's and the export's. */
const PROJECT_JSON = 'private.project_json(p) as project';

export async function insertProject(sql: Sql, workspaceId: string, project: NewProject): Promise<Project> {
  const [row] = await refusing(
    sql.query<{ project: Project }>(
      `insert into public.projects as p (workspace_id, key, name, description, created_by)
       values ($1, $2, $3, $4, (select auth.uid()))
       returning ${PROJECT_JSON}`,
      [workspaceId, project.key, project.name, project.description],
    ),
    projectWriteRefusals(project.key),
  );
  if (!row) throw new Error('insert into projects returned no row');
  return row.project;
}

/** A page of the workspace's projects, oldest first; archived ones only when asked for. */
export function selectProjects(
  sql: Sql,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
  includeArchived: boolean,
): Promise<ProjectListRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<ProjectListRow>(
    `select ${PROJECT_JSON}, json_build_array(created_at, id) as sort_key from public.projects p
     where workspace_id = ${callerWorkspaceIdAt('$1')}
       and ($2::boolean or archived_at is null)
       and ($3::timestamptz is null or (created_at, id) > ($3::timestamptz, $4::uuid))
     order by created_at, id
     limit $5`,
    [slug, includeArchived, createdAt, id, rowsToFetch(page)],
  );
}

/**
 * Applies the changes if the project is at an expected version and, when it is archived, only if the
 * changes just unarchive it (`onlyUnarchives`); undefined when no row changed. Archiving sets
 * `archived_at` once; unarchiving clears it.
 */
export async function updateProject(
  sql: Sql,
  workspaceId: string,
  key: string,
  changes: ProjectChanges,
  expected: ExpectedVersion,
  onlyUnarchives: boolean,
): Promise<Project | undefined> {
  const [row] = await refusing(
    sql.query<{ project: Project }>(
      `update public.projects p set
       key = coalesce($3, key),
       name = coalesce($4, name),
       description = coalesce($5, description),
       archived_at = case
         when $6::boolean then coalesce(archived_at, now())
         when not $6::boolean then null
         else archived_at
       end
     where workspace_id = $1 and key = $2
       and ($7::integer[] is null or version = any($7::integer[]))
       and (archived_at is null or $8::boolean)
     returning ${PROJECT_JSON}`,
      [
        workspaceId,
        key,
        changes.key ?? null,
        changes.name ?? null,
        changes.description ?? null,
        changes.archived ?? null,
        expected,
        onlyUnarchives,
      ],
    ),
    projectWriteRefusals(changes.key),
  );
  return row?.project;
}

/**
 * Deletes the project if it is at an expected version; undefined if no row was deleted, else whether its
 * tasks had attachments, whose objects its deletion queued for removal.
 */
export async function deleteProject(
  sql: Sql,
  workspaceId: string,
  key: string,
  expected: ExpectedVersion,
): Promise<DeletedWithFiles | undefined> {
  const [row] = await sql.query<DeletedWithFiles>(
    `delete from public.projects p
     where p.workspace_id = $1 and p.key = $2 and ($3::integer[] is null or p.version = any($3::integer[]))
     returning exists (
       select 1 from public.attachments a join public.tasks t on t.id = a.task_id where t.project_id = p.id
     ) as had_files`,
    [workspaceId, key, expected],
  );
  return row;
}

/**
 * The project `key` of the caller's workspace `slug`, found without waiting for the workspace's id: for
 * statements sent together in one round trip.
 */
export async function selectProjectAt(sql: Sql, slug: string, key: string): Promise<Project | undefined> {
  const [row] = await sql.query<{ project: Project }>(
    `select ${PROJECT_JSON} from public.projects p
     where key = $2 and workspace_id = ${callerWorkspaceIdAt('$1')}`,
    [slug, key],
  );
  return row?.project;
}

/** The caller's access to the workspace `slug` and that workspace's project `key`, each if there is one. */
export interface ProjectAccess {
  access?: WorkspaceAccessRow;
  project?: Project;
}

/**
 * selectWorkspaceAccess and selectProjectAt in one statement, which leaves out the projects policies: the
 * membership they check is checked in `private.caller_workspace_project`, and the project is told even
 * in a workspace that requires MFA, whose `403` the caller judges first, from the access.
 */
export async function selectProjectAccessAt(sql: Sql, slug: string, key: string): Promise<ProjectAccess> {
  const [row] = await sql.query<WorkspaceAccessRow & { project: Project | null }>(
    'select id, slug, require_mfa, role, project from private.caller_workspace_project($1, $2)',
    [slug, key],
  );
  if (!row) return {};
  const { project, ...access } = row;
  return project === null ? { access } : { access, project };
}

/** Past PROJECTS_PER_WORKSPACE (the trigger's `limit_reached`), or a key another project has. */
const projectWriteRefusals =
  (key: string | undefined): Refusals =>
  (error) => {
    if (raisedErrorCode(error) === 'limit_reached') {
      return new AppError(
        'limit_reached',
        `This workspace already has ${PROJECTS_PER_WORKSPACE} projects, the limit (projects_per_workspace). Delete one first.`,
      );
    }
    if (brokenUniqueConstraint(error) !== PROJECT_KEY_CONSTRAINT) return undefined;
    return new AppError(
      'project_key_taken',
      `Another project in this workspace already uses the key "${key}".`,
      { errors: [{ path: 'body.key', code: 'project_key_taken', message: 'is already taken' }] },
    );
  };
