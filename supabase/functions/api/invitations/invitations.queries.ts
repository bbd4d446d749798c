/**
 * SQL for a workspace's invitations. Runs as the caller: RLS shows invitations to the workspace's owners
 * and admins only and lets them revoke. Creating goes through `private.create_invitation`, which checks
 * the caller's role, the address, the member limit and the invitations the address received today,
 * with the limits of the database; accepting through `private.join_by_invitation` (`private.accept_invitation`), which also re-checks
 * the inviter and needs a confirmed address. Both raise the API's error code as the hint. A pending
 * invitation past its expiry reads as `expired`.
 */
import type { WorkspaceRole } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import type { RecentCreations } from '../../_shared/creation-budget.ts';
import type { CreatedAtIdKey, PageRequest } from '../../_shared/pages.ts';
import { rowsToFetch } from '../../_shared/pages.ts';
import { refusing } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import {
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import { CALLER_WORKSPACE_COLUMNS, type WorkspaceRow } from '../workspaces/workspaces.queries.ts';
import { acceptRefusals, creationRefusals } from './invitation-refusals.ts';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  email: string;
  role: WorkspaceRole;
  status: InvitationStatus;
  invited_by: string | null;
  accepted_by: string | null;
  expires_at: Date;
  version: number;
  created_at: Date;
  updated_at: Date;
  sort_key: CreatedAtIdKey;
}

export interface NewInvitationRow {
  workspaceId: string;
  email: string;
  role: WorkspaceRole;
  tokenHashHex: string;
}

/** What the invitation e-mail names besides the link and the address. */
export interface InvitationMailFacts extends Record<string, unknown> {
  workspace_name: string;
  inviter_name: string;
  /** When an invitation created in this transaction expires, as private.create_invitation sets it. */
  expires_at: Date;
}

const INVITATION_COLUMNS = `i.id, i.workspace_id, i.email, i.role,
  case when i.status = 'pending' and i.expires_at <= now() then 'expired' else i.status::text end as status,
  i.invited_by, i.accepted_by, i.expires_at, i.version, i.created_at, i.updated_at,
  json_build_array(i.created_at, i.id) as sort_key`;

/** An invitation as its page shows it to the caller (private.preview_invitation). */
export interface InvitationPreviewRow extends Record<string, unknown> {
  workspace_slug: string;
  workspace_name: string;
  require_mfa: boolean;
  /** Only for the invited person, while the invitation is pending. */
  email: string | null;
  role: WorkspaceRole;
  status: InvitationStatus;
  inviter_name: string | null;
  expires_at: Date;
  for_caller: boolean;
  caller_is_member: boolean;
}

/** Holds until the transaction ends, so that one person's invitations are created one at a time. */
export async function lockOwnInvitationCreation(sql: Sql): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('create_invitation:' || (select auth.uid())::text, 0))`,
  );
}

/** The invitations the caller created within the last `windowSeconds`, in any workspace. */
export async function selectOwnRecentInvitations(sql: Sql, windowSeconds: number): Promise<RecentCreations> {
  const [row] = await sql.query<RecentCreations>(
    'select count, retry_after_seconds from private.own_recent_invitations($1)',
    [windowSeconds],
  );
  return row ?? { count: 0, retry_after_seconds: null };
}

export async function insertInvitation(sql: Sql, invitation: NewInvitationRow): Promise<InvitationRow> {
  const [row] = await refusing(
    sql.query<InvitationRow>(
      `select ${INVITATION_COLUMNS}
       from private.create_invitation($1, $2, $3, decode($4, 'hex')) i`,
      [invitation.workspaceId, invitation.email, invitation.role, invitation.tokenHashHex],
    ),
    creationRefusals(invitation.email),
  );
  if (!row) throw new Error('private.create_invitation returned no row');
  return row;
}

/**
 * The mail facts of an invitation to the workspace that the caller creates in this transaction: the
 * expiry is computed as private.create_invitation computes it (now() is the transaction's start), so it
 * can be read before the invitation is written. `lifetimeDays` is INVITATION_LIFETIME_DAYS, which
 * tests/db/invitation-rules.test.ts holds equal to the database's own.
 */
export async function selectInvitationMailFacts(
  sql: Sql,
  workspace: WorkspaceReference,
  lifetimeDays: number,
): Promise<InvitationMailFacts | undefined> {
  const [row] = await sql.query<InvitationMailFacts>(
    `select w.name as workspace_name, p.display_name as inviter_name,
       now() + make_interval(days => $2) as expires_at
     from public.workspaces w, public.profiles p
     where w.id = ${workspaceIdOf(workspace, '$1')} and p.user_id = (select auth.uid())`,
    [workspaceValueOf(workspace), lifetimeDays],
  );
  return row;
}

/** A page of the workspace's invitations, oldest first; only those in `status` when it is given. */
export function selectInvitations(
  sql: Sql,
  workspace: WorkspaceReference,
  status: InvitationStatus | undefined,
  page: PageRequest<CreatedAtIdKey>,
): Promise<InvitationRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<InvitationRow>(
    `select * from (select ${INVITATION_COLUMNS} from public.invitations i
       where i.workspace_id = ${workspaceIdOf(workspace, '$1')}) i
     where ($2::text is null or i.status = $2::text)
       and ($3::timestamptz is null or (i.created_at, i.id) > ($3::timestamptz, $4::uuid))
     order by i.created_at, i.id
     limit $5`,
    [workspaceValueOf(workspace), status ?? null, createdAt, id, rowsToFetch(page)],
  );
}

export async function selectInvitation(
  sql: Sql,
  workspace: WorkspaceReference,
  id: string,
): Promise<InvitationRow | undefined> {
  const [row] = await sql.query<InvitationRow>(
    `select ${INVITATION_COLUMNS} from public.invitations i
     where i.workspace_id = ${workspaceIdOf(workspace, '$1')} and i.id = $2`,
    [workspaceValueOf(workspace), id],
  );
  return row;
}

/** Revokes the invitation if it is pending, unexpired and at an expected version; undefined otherwise. */
export async function revokeInvitation(
  sql: Sql,
  workspaceId: string,
  id: string,
  expected: ExpectedVersion,
): Promise<InvitationRow | undefined> {
  const [row] = await sql.query<InvitationRow>(
    `update public.invitations i set status = 'revoked'
     where i.workspace_id = $1 and i.id = $2 and i.status = 'pending' and i.expires_at > now()
       and ($3::integer[] is null or i.version = any($3::integer[]))
     returning ${INVITATION_COLUMNS}`,
    [workspaceId, id, expected],
  );
  return row;
}

/**
 * Makes the caller a member through the invitation whose token has this hash; the workspace joined, as
 * one of the caller's (even at aal1 where it requires MFA, which the caller is then refused).
 */
export async function joinByInvitation(sql: Sql, tokenHashHex: string): Promise<WorkspaceRow> {
  const [row] = await refusing(
    sql.query<WorkspaceRow>(
      `select ${CALLER_WORKSPACE_COLUMNS} from private.join_by_invitation(decode($1, 'hex')) w`,
      [tokenHashHex],
    ),
    acceptRefusals,
  );
  if (!row) throw new Error('private.join_by_invitation returned no row');
  return row;
}

/** The invitation whose token has this hash, as its page shows it to the caller; undefined if none. */
export async function selectInvitationPreview(
  sql: Sql,
  tokenHashHex: string,
): Promise<InvitationPreviewRow | undefined> {
  const [row] = await sql.query<InvitationPreviewRow>(
    `select * from private.preview_invitation(decode($1, 'hex'))`,
    [tokenHashHex],
  );
  return row;
}
