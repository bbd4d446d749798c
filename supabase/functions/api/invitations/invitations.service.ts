/**
 * Invitations to a workspace (docs/product.md#states): owners and admins create them (up to their own role;
 * owners invite owners), list, read and revoke them; the invited person accepts with the token from the link.
 * The token is answered once, inside `accept_url`; only its hash is kept. Creating one counts against the
 * member limit (members and pending invitations together) and the inviter's hourly budget.
 */
import type {
  CreateInvitation,
  Invitation,
  InvitationPreview,
  NewInvitation,
  Workspace,
} from '../../_shared/api-types.ts';
import { CREATION_WINDOW_SECONDS, requireCreationBudget } from '../../_shared/creation-budget.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { INVITATION_LIFETIME_DAYS } from '../../_shared/limits.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireExpectedVersion, type ExpectedVersion } from '../../_shared/versions.ts';
import { selectWorkspaceAccess } from '../workspaces/workspace-access.queries.ts';
import {
  admitToWorkspace,
  enterWorkspaceWith,
  readInWorkspace,
  requireRole,
  requireWorkspaceSlug,
} from '../workspaces/workspace-access.ts';
import { toWorkspace } from '../workspaces/workspaces.service.ts';
import { enqueueInvitationMail, type ClaimedMail } from '../mail-outbox/mail-outbox.queries.ts';
import { invitationMail } from './invitation-mail.ts';
import { acceptUrlOf, generateInvitationToken, hashInvitationToken } from './invitation-token.ts';
import {
  insertInvitation,
  joinByInvitation,
  lockOwnInvitationCreation,
  revokeInvitation as revokeInvitationRow,
  selectInvitation,
  selectInvitationMailFacts,
  selectInvitationPreview,
  selectInvitations,
  selectOwnRecentInvitations,
  type InvitationPreviewRow,
  type InvitationRow,
  type InvitationStatus,
} from './invitations.queries.ts';

/** A new invitation, and its mail, queued in the outbox with it. */
export interface CreatedInvitation {
  invitation: NewInvitation;
  /** Queued in the same transaction, claimed for this request (docs/decisions/0014): send it after commit. */
  mail: ClaimedMail;
}

/**
 * In two round trips: the access, the inviter's creation lock, their hourly budget and what the mail
 * says, read together with the transaction's BEGIN and judged in that order; then the invitation and its
 * mail, rendered beforehand, with the COMMIT.
 */
export async function createInvitation(
  db: Database,
  principal: Principal,
  slug: string,
  request: CreateInvitation,
  appUrl: string,
): Promise<CreatedInvitation> {
  requireWorkspaceSlug(slug);
  const token = generateInvitationToken();
  const tokenHashHex = await hashInvitationToken(token);
  return db.asCaller(principal, async (sql) => {
    const [accessRow, , recent, facts] = await Promise.all([
      selectWorkspaceAccess(sql, slug),
      lockOwnInvitationCreation(sql),
      selectOwnRecentInvitations(sql, CREATION_WINDOW_SECONDS),
      selectInvitationMailFacts(sql, { slug }, INVITATION_LIFETIME_DAYS),
    ]);
    const access = admitToWorkspace(principal, slug, accessRow);
    requireRole(access, 'admin', 'invite people');
    if (request.role === 'owner' && access.role !== 'owner') {
      throw new AppError('forbidden', 'Only owners can invite owners.');
    }
    requireCreationBudget(recent, 'invitations');
    if (!facts) throw new Error('the workspace or the inviter has vanished mid-transaction');
    const mail = invitationMail({
      invitation: {
        email: request.email,
        role: request.role,
        expires_at: facts.expires_at.toISOString(),
        accept_url: acceptUrlOf(appUrl, token),
      },
      workspaceName: facts.workspace_name,
      inviterName: facts.inviter_name,
    });
    const newInvitation = {
      workspaceId: access.workspaceId,
      email: request.email,
      role: request.role,
      tokenHashHex,
    };
    // The mail is queued behind the creation, in its round trip: if the creation fails, so does it.
    const [created, queued] = await Promise.allSettled([
      insertInvitation(sql, newInvitation),
      enqueueInvitationMail(asLastStatement(sql), tokenHashHex, mail),
    ]);
    if (created.status === 'rejected') throw created.reason;
    if (queued.status === 'rejected') throw queued.reason;
    const invitation = { ...toInvitation(created.value), accept_url: acceptUrlOf(appUrl, token) };
    return { invitation, mail: { id: queued.value, invitation_id: invitation.id, user_id: null, mail } };
  });
}

export function listInvitations(
  db: Database,
  principal: Principal,
  slug: string,
  status: InvitationStatus | undefined,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Invitation>> {
  return db.asCaller(principal, async (sql) => {
    const { access, found: rows } = await readInWorkspace(sql, principal, slug, (last) =>
      selectInvitations(last, { slug }, status, page),
    );
    requireRole(access, 'admin', 'see or revoke invitations');
    return pageOf(rows, page, toInvitation);
  });
}

export function getInvitation(
  db: Database,
  principal: Principal,
  slug: string,
  id: string,
): Promise<Invitation> {
  return db.asCaller(principal, async (sql) => {
    const { access, found: row } = await readInWorkspace(sql, principal, slug, (last) =>
      selectInvitation(last, { slug }, id),
    );
    requireRole(access, 'admin', 'see or revoke invitations');
    if (!row) throw invitationIdNotFound();
    return toInvitation(row);
  });
}

/**
 * Revokes a pending invitation. One that is no longer pending is answered as it is, unless If-Match
 * names another version than the one it is at. The invitation is read with the access and judged on
 * that read; the revoke goes with its COMMIT.
 */
export async function revokeInvitation(
  db: Database,
  principal: Principal,
  slug: string,
  id: string,
  expected: ExpectedVersion,
): Promise<Invitation> {
  const { access, revoked } = await db.asCaller(principal, async (sql) => {
    const { access, found: row } = await enterWorkspaceWith(sql, principal, slug, () =>
      selectInvitation(sql, { slug }, id),
    );
    requireRole(access, 'admin', 'see or revoke invitations');
    const current = answerAsItIs(row, expected);
    return {
      access,
      revoked: current ?? (await revokeInvitationRow(asLastStatement(sql), access.workspaceId, id, expected)),
    };
  });
  if (revoked) return toInvitation(revoked);
  // It changed between the read and the revoke: once more, the revoke first, then as it is after it.
  return db.asCaller(principal, async (sql) => {
    const again = await revokeInvitationRow(sql, access.workspaceId, id, expected);
    if (again) return toInvitation(again);
    const current = await selectInvitation(asLastStatement(sql), access.workspaceId, id);
    if (!current) throw invitationIdNotFound();
    requireExpectedVersion(current.version, expected);
    return toInvitation(current);
  });
}

/**
 * A revoke's answer without revoking: `404` if there is no `row`, `412` if If-Match names another
 * version, `row` itself if it is no longer pending; undefined if it is pending (to be revoked).
 */
function answerAsItIs(row: InvitationRow | undefined, expected: ExpectedVersion): InvitationRow | undefined {
  if (!row) throw invitationIdNotFound();
  requireExpectedVersion(row.version, expected);
  return row.status === 'pending' ? undefined : row;
}

/**
 * What the invitation page shows before accepting, to anyone who holds the token: the token is the proof
 * they were sent the link. Signed out (no `principal`), it is read as `anon`, which learns no address and
 * is nobody's member. One statement, read as the caller (0016).
 */
export async function previewInvitation(
  db: Database,
  principal: Principal | undefined,
  token: string,
): Promise<InvitationPreview> {
  const tokenHashHex = await hashInvitationToken(token);
  const row = await db.asCaller(principal ?? null, (sql) =>
    selectInvitationPreview(asLastStatement(sql), tokenHashHex),
  );
  if (!row) throw new AppError('not_found', 'No invitation has this token.');
  return toInvitationPreview(row);
}

/**
 * Makes the caller a member through the invitation and answers the workspace, read in the same
 * statement. A workspace that requires MFA is entered before the transaction commits, so an aal1 caller
 * is refused and nothing changes.
 */
export async function acceptInvitation(
  db: Database,
  principal: Principal,
  token: string,
): Promise<Workspace> {
  const tokenHashHex = await hashInvitationToken(token);
  return db.asCaller(principal, async (sql) => {
    const joined = await joinByInvitation(sql, tokenHashHex);
    admitToWorkspace(principal, joined.slug, joined);
    return toWorkspace(joined);
  });
}

export function invitationIdNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no invitation with this id.');
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    object: 'invitation',
    id: row.id,
    workspace_id: row.workspace_id,
    email: row.email,
    role: row.role,
    status: row.status,
    invited_by: row.invited_by,
    accepted_by: row.accepted_by,
    expires_at: row.expires_at.toISOString(),
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toInvitationPreview(row: InvitationPreviewRow): InvitationPreview {
  return {
    object: 'invitation_preview',
    workspace: { slug: row.workspace_slug, name: row.workspace_name, require_mfa: row.require_mfa },
    email: row.email,
    role: row.role,
    status: row.status,
    invited_by: row.inviter_name === null ? null : { display_name: row.inviter_name },
    expires_at: row.expires_at.toISOString(),
    for_caller: row.for_caller,
    caller_is_member: row.caller_is_member,
  };
}
