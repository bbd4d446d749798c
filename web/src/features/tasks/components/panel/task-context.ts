import type { components } from '@api-spec/schema.d.ts';

export type Task = components['schemas']['Task'];
export type Member = components['schemas']['Member'];
export type Label = components['schemas']['Label'];
export type WorkspaceRole = components['schemas']['WorkspaceRole'];

/** What the panel needs from outside the tasks feature; the route reads it and passes it in. */
export interface TaskWorkspace {
  slug: string;
  /** The caller's role: viewers read only; owners and admins may also delete anyone's comment. */
  role: WorkspaceRole;
  /** The signed-in person's user id, to know which comments are theirs. */
  meId: string | null;
  members: readonly Member[];
  labels: readonly Label[];
  createLabel: (label: { name: string; color: string }) => Promise<Label>;
}

export function canEditTasks(role: WorkspaceRole): boolean {
  return role !== 'viewer';
}

export function canModerate(role: WorkspaceRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** A member's picture's signed URL, or null (none, or someone who left). */
export function memberAvatar(members: readonly Member[], userId: string | null): string | null {
  return (userId === null ? undefined : members.find((m) => m.user_id === userId))?.avatar_url ?? null;
}

/** A member's name as shown, or a stand-in for someone who left or deleted their account. */
export function memberName(members: readonly Member[], userId: string | null): string {
  const member = userId === null ? undefined : members.find((m) => m.user_id === userId);
  return member?.display_name ?? 'Former member';
}
