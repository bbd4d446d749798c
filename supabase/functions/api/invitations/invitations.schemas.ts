/**
 * The rules for an invitation (docs/product.md#states, #validation), written once: the API validates `POST
 * /v1/workspaces/{slug}/invitations` with them and the web's invite form does too. Imports nothing but
 * zod and other schemas files, so the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { EmailSchema } from '../me/me.schemas.ts';
import { WorkspaceRoleSchema } from '../members/members.schemas.ts';

/** `expired` is read, not stored: a pending invitation past its expiry. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const InvitationStatusSchema = z.enum(
  INVITATION_STATUSES,
  `must be one of ${INVITATION_STATUSES.join(', ')}`,
);

export const CreateInvitationBodySchema = z.strictObject({
  email: EmailSchema,
  role: WorkspaceRoleSchema,
});
