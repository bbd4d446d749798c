/**
 * A workspace's members: list and read them (any member), change roles and remove members (owners any;
 * admins up to admin, never an owner), and leave (anyone). The last owner can neither leave nor be
 * demoted: a trigger refuses it (`last_owner`). RLS enforces the same rules; the checks here exist to
 * answer precisely.
 */
import type { Member, UpdateMember } from '../../_shared/api-types.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import type { FileStore } from '../files/file-store.ts';
import { withMemberAvatars } from '../files/avatar-urls.ts';
import {
  enterWorkspaceWith,
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

export async function listMembers(
  db: Database,
  files: FileStore,
  principal: Principal,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Member>> {
  const found = await db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) => selectMembers(last, slug, page));
    return pageOf(found, page, (row) => row.member);
  });
  return { ...found, data: await withMemberAvatars(files, found.data) };
}

export async function getMember(
  db: Database,
  files: FileStore,
  principal: Principal,
  slug: string,
  userId: string,
): Promise<Member> {
  const member = await db.asCaller(principal, async (sql) => {
    const { found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectMember(last, { slug }, userId),
    );
    if (!found) throw memberNotFound();
    return found;
  });
  return (await withMemberAvatars(files, [member]))[0] ?? member;
}

/**
 * The member is read with the access and judged on that read (404, 403, If-Match's 412); the change
 * goes with its COMMIT and answers the member as changed. A change that changed no row (the membership
 * changed or went meanwhile) reads its version in a transaction of its own for the answer.
 */
export async function updateMember(
  db: Database,
  files: FileStore,
  principal: Principal,
  slug: string,
  userId: string,
  changes: UpdateMember,
  expected: ExpectedVersion,
): Promise<Member> {
  const { access, updated } = await db.asCaller(principal, async (sql) => {
    const { access, found } = await enterWorkspaceWith(sql, principal, slug, () =>
      selectMember(sql, { slug }, userId),
    );
    requireRole(access, 'admin', "change members' roles");
    const member = memberFound(found);
    requireAuthorityOver(access, member, 'change the role of an owner');
    if (access.role !== 'owner' && changes.role === 'owner') {
      throw new AppError('forbidden', 'Only owners can make someone an owner.');
    }
    requireExpectedVersion(member.version, expected);
    if (changes.role === undefined || changes.role === member.role) return { access, updated: member };
    const [last, named] = [asLastStatement(sql), namedAs(member, principal)];
    return {
      access,
      updated: await updateMemberRole(last, access.workspaceId, userId, changes.role, expected, named),
    };
  });
  if (updated) return (await withMemberAvatars(files, [updated]))[0] ?? updated;
  throw conditionalWriteFailure(await currentVersion(db, principal, access, userId));
}

/**
 * Removes a member; removing oneself is leaving, which every role may do. Read with the access and
 * judged on that read, then the delete with its COMMIT, as updateMember.
 */
export async function removeMember(
  db: Database,
  principal: Principal,
  slug: string,
  userId: string,
  expected: ExpectedVersion,
): Promise<void> {
  const { access, deleted } = await db.asCaller(principal, async (sql) => {
    const { access, found } = await enterWorkspaceWith(sql, principal, slug, () =>
      selectMember(sql, { slug }, userId),
    );
    const member = memberFound(found);
    if (member.user_id !== principal.user_id) {
      requireRole(access, 'admin', 'remove other members');
      requireAuthorityOver(access, member, 'remove an owner');
    }
    requireExpectedVersion(member.version, expected);
    const [last, named] = [asLastStatement(sql), namedAs(member, principal)];
    return { access, deleted: await deleteMember(last, access.workspaceId, userId, expected, named) };
  });
  if (deleted) return;
  throw conditionalWriteFailure(await currentVersion(db, principal, access, userId));
}

/** The membership's version as it is now, in a transaction of its own (after a write's has ended). */
function currentVersion(
  db: Database,
  principal: Principal,
  access: WorkspaceAccess,
  userId: string,
): Promise<number | undefined> {
  return db.asCaller(principal, (sql) =>
    selectMemberVersion(asLastStatement(sql), access.workspaceId, userId),
  );
}

/** Admins manage admins, members and viewers; only owners manage owners (docs/product.md#roles). */
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

function memberFound(member: Member | undefined): Member {
  if (!member) throw memberNotFound();
  return member;
}

export function memberNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no member with this user id.');
}
