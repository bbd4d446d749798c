import type { components } from '@api-spec/schema.d.ts';

type Member = components['schemas']['Member'];
export type WorkspaceRole = Member['role'];

/** The roles in the order people read them, most powerful first. */
export const ROLES: readonly WorkspaceRole[] = ['owner', 'admin', 'member', 'viewer'];

export const ROLE_LABELS: Readonly<Record<WorkspaceRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

/**
 * The roles the caller may give `target` (docs/product.md#roles, as
 * `PATCH /v1/workspaces/{slug}/members/{user_id}` enforces it): owners any role to anyone; admins admin, member or
 * viewer to anyone but an owner; others none. Empty when the caller may not change the target's role at all.
 */
export function assignableRoles(caller: WorkspaceRole, target: WorkspaceRole): readonly WorkspaceRole[] {
  if (caller === 'owner') return ROLES;
  if (caller === 'admin' && target !== 'owner') return ROLES.filter((role) => role !== 'owner');
  return [];
}

/** Whether the caller may remove the target: anyone themselves (leaving), owners anyone, admins non-owners. */
export function mayRemove(caller: WorkspaceRole, target: WorkspaceRole, isSelf: boolean): boolean {
  if (isSelf || caller === 'owner') return true;
  return caller === 'admin' && target !== 'owner';
}

/** Whether the member is the workspace's only owner, who can neither leave nor be demoted nor removed. */
export function isLastOwner(members: readonly Pick<Member, 'role'>[], member: Pick<Member, 'role'>): boolean {
  return member.role === 'owner' && members.filter((each) => each.role === 'owner').length === 1;
}

export const LAST_OWNER_EXPLANATION =
  'A workspace always needs an owner. Make someone else an owner first, or delete the workspace.';
