/**
 * The rules for a workspace's members (SPEC §6), written once: the API validates `PATCH
 * /v1/workspaces/{slug}/members/{user_id}` with them and the web's member settings do too. Imports
 * nothing but zod, so the browser bundle can import this file as is.
 */
import { z } from 'zod';

/** From most to least powerful. */
export const WORKSPACE_ROLE_NAMES = ['owner', 'admin', 'member', 'viewer'] as const;

export const WorkspaceRoleSchema = z.enum(
  WORKSPACE_ROLE_NAMES,
  `must be one of ${WORKSPACE_ROLE_NAMES.join(', ')}`,
);

/** `PATCH /v1/workspaces/{slug}/members/{user_id}`: JSON Merge Patch over the writable fields. */
export const UpdateMemberBodySchema = z.strictObject({
  role: WorkspaceRoleSchema.optional(),
});
