/**
 * A workspace's members: list and read them (any member), change roles and remove members (owners any;
 * admins up to admin, never an owner), and leave (anyone). The last owner can neither leave nor be
 * demoted: a trigger refuses it (`last_owner`). RLS enforces the same rules; the checks here exist to
 * answer precisely.
 */
import type { Member, UpdateMember } from '../../_shared/api-types.ts';
import type { Database, Sql } from '../../_shared/db.ts';
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
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import {
  deleteMember,
  selectMember,
  selectMembers,
  selectMemberVersion,
  updateMemberRole,
  type MemberNamed,
} from './members.queries.ts';

export function listMembers(
  db: Database,
  principal: Principal,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Member>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) => selectMembers(last, slug, page));
    return pageOf(found, page, (row) => row.member);
  });
}

export function getMember(db: Database, principal: Principal, slug: string, userId: string): Promise<Member> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectMember(last, { slug }, userId),
    );
    if (!found) throw memberNotFound();
    return found;
  });
}

export function updateMember(
  db: Database,
  principal: Principal,
  slug: string,
  userId: string,
  changes: UpdateMember,
  expected: ExpectedVersion,
): Promise<Member> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    requireRole(access, 'admin', "change members' roles");
    const member = await found(sql, access, userId);
    requireAuthorityOver(access, member, 'change the role of an owner');
    if (access.role !== 'owner' && changes.role === 'owner') {
      throw new AppError('forbidden', 'Only owners can make someone an owner.');
    }
    if (changes.role === undefined || changes.role === member.role) {
      requireExpectedVersion(member.version, expected);
      return member;
    }
    const named = namedAs(member, principal);
    if (await updateMemberRole(sql, access.workspaceId, userId, changes.role, expected, named)) {
      return found(sql, access, userId);
    }
    throw conditionalWriteFailure(await selectMemberVersion(sql, access.workspaceId, userId));
  });
}

/** Removes a member; removing oneself is leaving, which every role may do. */
export function removeMember(
  db: Database,
  principal: Principal,
  slug: string,
  userId: string,
  expected: ExpectedVersion,
): Promise<void> {
  return db.asCaller(principal, async (sql) => {
    const access = await enterWorkspace(sql, principal, slug);
    const member = await found(sql, access, userId);
    if (member.user_id !== principal.user_id) {
      requireRole(access, 'admin', 'remove other members');
      requireAuthorityOver(access, member, 'remove an owner');
    }
    if (await deleteMember(sql, access.workspaceId, userId, expected, namedAs(member, principal))) return;
    throw conditionalWriteFailure(await selectMemberVersion(sql, access.workspaceId, userId));
  });
}

/** Admins manage admins, members and viewers; only owners manage owners (SPEC §6). */
function requireAuthorityOver(access: WorkspaceAccess, member: Member, action: string): void {
  if (member.role !== 'owner' || access.role === 'owner') return;
  throw new AppError(
    'forbidden',
    `Your role in this workspace (${access.role}) does not allow you to ${action}.`,
  );
}

function namedAs(member: Member, principal: Principal): MemberNamed {
  return { displayName: member.display_name, isCaller: member.user_id === principal.user_id };
}

async function found(sql: Sql, access: WorkspaceAccess, userId: string): Promise<Member> {
  const member = await selectMember(sql, access.workspaceId, userId);
  if (!member) throw memberNotFound();
  return member;
}

export function memberNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no member with this user id.');
}
