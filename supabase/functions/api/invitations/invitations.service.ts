/**
 * Invitations to a workspace (SPEC §4): owners and admins create them (up to their own role; owners
 * invite owners), list, read and revoke them; the invited person accepts with the token from the link.
 * The token is answered once, inside `accept_url`; only its hash is kept. Creating one counts against
 * the member limit (members and pending invitations together) and the inviter's hourly budget.
 */
import type { CreateInvitation, Invitation, NewInvitation, Workspace } from '../../_shared/api-types.ts';
import { CREATION_WINDOW_SECONDS, requireCreationBudget } from '../../_shared/creation-budget.ts';
import type { Database, Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireExpectedVersion, type ExpectedVersion } from '../../_shared/versions.ts';
import {
  enterWorkspace,
  readInWorkspace,
  requireRole,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import { enqueueInvitationMail } from '../mail-outbox/mail-outbox.queries.ts';
import { invitationMail } from './invitation-mail.ts';
import { acceptUrlOf, generateInvitationToken, hashInvitationToken } from './invitation-token.ts';
import {
  acceptInvitation as acceptInvitationRow,
  insertInvitation,
  lockOwnInvitationCreation,
  revokeInvitation as revokeInvitationRow,
  selectInvitation,
  selectInvitationMailFacts,
  selectInvitations,
  selectOwnRecentInvitations,
  selectWorkspaceSlug,
  type InvitationRow,
  type InvitationStatus,
} from './invitations.queries.ts';

/** A new invitation, what its e-mail says besides the link, and the mail's row in the outbox. */
export interface CreatedInvitation {
  invitation: NewInvitation;
  workspaceName: string;
  inviterName: string;
  /** The invitation's mail, queued in the same transaction (docs/decisions/0014): send it after commit. */
  outboxId: string;
}

export function createInvitation(
  db: Database,
  principal: Principal,
  slug: string,
  request: CreateInvitation,
  appUrl: string,
): Promise<CreatedInvitation> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'admin', 'invite people');
    if (request.role === 'owner' && access.role !== 'owner') {
      throw new AppError('forbidden', 'Only owners can invite owners.');
    }
    await lockOwnInvitationCreation(sql);
    requireCreationBudget(await selectOwnRecentInvitations(sql, CREATION_WINDOW_SECONDS), 'invitations');
    const token = generateInvitationToken();
    const row = await insertInvitation(sql, {
      workspaceId: access.workspaceId,
      email: request.email,
      role: request.role,
      tokenHashHex: await hashInvitationToken(token),
    });
    const facts = await selectInvitationMailFacts(sql, access.workspaceId);
    if (!facts) throw new Error('the workspace or the inviter has vanished mid-transaction');
    const created = {
      invitation: { ...toInvitation(row), accept_url: acceptUrlOf(appUrl, token) },
      workspaceName: facts.workspace_name,
      inviterName: facts.inviter_name,
    };
    return { ...created, outboxId: await enqueueInvitationMail(sql, row.id, invitationMail(created)) };
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
 * names another version than the one it is at.
 */
export function revokeInvitation(
  db: Database,
  principal: Principal,
  slug: string,
  id: string,
  expected: ExpectedVersion,
): Promise<Invitation> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterAsAdmin(sql, principal, slug);
    const revoked = await revokeInvitationRow(sql, access.workspaceId, id, expected);
    if (revoked) return toInvitation(revoked);
    const current = await found(sql, access, id);
    requireExpectedVersion(current.version, expected);
    return toInvitation(current);
  });
}

/**
 * Makes the caller a member through the invitation and answers the workspace. A workspace that requires
 * MFA is entered before the transaction commits, so an aal1 caller is refused and nothing changes.
 */
export async function acceptInvitation(
  db: Database,
  principal: Principal,
  token: string,
): Promise<Workspace> {
  const tokenHashHex = await hashInvitationToken(token);
  const slug = await db.asCaller(principal, async (sql) => {
    const workspaceId = await acceptInvitationRow(sql, tokenHashHex);
    const joined = await selectWorkspaceSlug(sql, workspaceId);
    if (!joined) throw new Error('the workspace just joined is not visible');
    await enterWorkspace(sql, principal, joined);
    return joined;
  });
  return getWorkspace(db, principal, slug);
}

async function enterAsAdmin(sql: Sql, principal: Principal, slug: string): Promise<WorkspaceAccess> {
  const access = await enterWorkspace(sql, principal, slug);
  requireRole(access, 'admin', 'see or revoke invitations');
  return access;
}

async function found(sql: Sql, access: WorkspaceAccess, id: string): Promise<InvitationRow> {
  const row = await selectInvitation(sql, access.workspaceId, id);
  if (!row) throw invitationIdNotFound();
  return row;
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
