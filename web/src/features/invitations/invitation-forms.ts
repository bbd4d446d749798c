import { CreateInvitationBodySchema } from '@api/invitations/invitations.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

/** The invite form's rules: the very schema `POST /v1/workspaces/{slug}/invitations` validates with. */

export const INVITATION_LABELS = { email: 'E-mail', role: 'Role' } as const;

export type InvitationField = keyof typeof INVITATION_LABELS;

type CreateInvitation = components['schemas']['CreateInvitation'];
type WorkspaceRole = CreateInvitation['role'];

export function validateInvitation(values: CreateInvitation): Validation<CreateInvitation, InvitationField> {
  return validateForm(CreateInvitationBodySchema, values, INVITATION_LABELS);
}

/** Owners may invite any role; admins any but owner (docs/product.md#roles). */
export function invitableRoles(caller: WorkspaceRole): readonly WorkspaceRole[] {
  return caller === 'owner' ? ['owner', 'admin', 'member', 'viewer'] : ['admin', 'member', 'viewer'];
}
