/**
 * The one way into a workspace's resources: every route under /v1/workspaces/{slug} starts with
 * `enterWorkspace`, which finds the workspace among the caller's own (another workspace is `404`, never
 * `403`) and applies its MFA rule; then `requireRole` guards what the caller's role may do
 * (docs/product.md#roles). RLS enforces the same rules again underneath; these checks exist to answer
 * precisely.
 */
import type { WorkspaceRole } from '../../_shared/api-types.ts';
import { asLastStatement, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import type { Principal } from '../../_shared/principal.ts';
import { selectWorkspaceAccess, type WorkspaceAccessRow } from './workspace-access.queries.ts';
import { WORKSPACE_ROLES } from '../members/members.schemas.ts';
import { WorkspaceSlugSchema } from './workspaces.schemas.ts';

/** The caller's standing in one workspace. */
export interface WorkspaceAccess {
  workspaceId: string;
  slug: string;
  role: WorkspaceRole;
  requireMfa: boolean;
}

export function workspaceNotFound(slug: string): AppError {
  return new AppError('not_found', `You are not a member of a workspace with the slug "${slug}".`);
}

/**
 * The caller's access to the workspace `slug`: `404` unless they are a member, `403 mfa_required` when it
 * requires MFA and the caller is at aal1 (an API token is aal2 when its person has a verified factor).
 */
export async function enterWorkspace(sql: Sql, principal: Principal, slug: string): Promise<WorkspaceAccess> {
  // A slug no workspace can have (it may even hold text Postgres cannot take, such as NUL) names none.
  const row = WorkspaceSlugSchema.safeParse(slug).success
    ? await selectWorkspaceAccess(sql, slug)
    : undefined;
  if (!row) throw workspaceNotFound(slug);
  return admit(principal, row);
}

/** `404` for a slug no workspace can have, before any statement carries it (it may hold NUL). */
export function requireWorkspaceSlug(slug: string): void {
  if (!WorkspaceSlugSchema.safeParse(slug).success) throw workspaceNotFound(slug);
}

/**
 * enterWorkspace and a read that finds the workspace by its slug (callerWorkspaceIdAt), in one round
 * trip, the COMMIT behind the read, which sends one statement. The access is judged first, so a
 * workspace the caller may not enter answers as enterWorkspace does, whatever the read found.
 */
export function readInWorkspace<T>(
  sql: Sql,
  principal: Principal,
  slug: string,
  read: (sql: Sql) => Promise<T>,
): Promise<{ access: WorkspaceAccess; found: T }> {
  return enterWorkspaceWith(sql, principal, slug, () => read(asLastStatement(sql)));
}

/**
 * readInWorkspace for a write: the read (of what the write will change, by slug) goes with the access,
 * and the transaction stays open for the write, which waits for the role to be judged.
 */
export async function enterWorkspaceWith<T>(
  sql: Sql,
  principal: Principal,
  slug: string,
  read: () => Promise<T>,
): Promise<{ access: WorkspaceAccess; found: T }> {
  requireWorkspaceSlug(slug);
  const [row, found] = await Promise.all([selectWorkspaceAccess(sql, slug), read()]);
  return { access: admitToWorkspace(principal, slug, row), found };
}

/**
 * enterWorkspace, from the row of selectWorkspaceAccess sent alongside the statements that depend on it
 * (in the same round trip); the slug has passed requireWorkspaceSlug.
 */
export function admitToWorkspace(
  principal: Principal,
  slug: string,
  row: WorkspaceAccessRow | undefined,
): WorkspaceAccess {
  if (!row) throw workspaceNotFound(slug);
  return admit(principal, row);
}

/** `403 mfa_required` when the workspace requires MFA and the caller is at aal1; else their access. */
function admit(principal: Principal, row: WorkspaceAccessRow): WorkspaceAccess {
  if (row.require_mfa && principal.aal !== 'aal2')
    throw mfaRequired(row.slug, principal.api_token !== undefined);
  return { workspaceId: row.id, slug: row.slug, role: row.role, requireMfa: row.require_mfa };
}

/** `403 mfa_required`: the workspace `slug` requires a second factor the caller has not verified. */
export function mfaRequired(slug: string, viaApiToken: boolean): AppError {
  return new AppError(
    'mfa_required',
    viaApiToken
      ? `The workspace "${slug}" requires two-factor authentication: its API tokens must belong to people who have a verified second factor.`
      : `The workspace "${slug}" requires two-factor authentication: verify your second factor, then try again.`,
  );
}

/** Whether `role` may do what `minimum` may. */
export function outranksOrEquals(role: WorkspaceRole, minimum: WorkspaceRole): boolean {
  return WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(minimum);
}

/**
 * `403 forbidden` unless the caller's role is at least `minimum`; `action` completes "Your role (viewer)
 * does not allow you to …", e.g. "create projects".
 */
export function requireRole(access: WorkspaceAccess, minimum: WorkspaceRole, action: string): void {
  if (!outranksOrEquals(access.role, minimum)) throw roleRefused(access.role, action);
}

/** `403 forbidden`: "Your role in this workspace (viewer) does not allow you to move tasks." */
export function roleRefused(role: string, action: string): AppError {
  return new AppError('forbidden', `Your role in this workspace (${role}) does not allow you to ${action}.`);
}
