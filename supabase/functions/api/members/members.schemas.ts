/**
 * The rules for a workspace's members (docs/product.md#roles), written once: the API validates `PATCH
 * /v1/workspaces/{slug}/members/{user_id}` with them and the web's member settings do too. Imports
 * nothing but zod and the shared vocabulary, so the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { WORKSPACE_ROLES } from '../../_shared/vocabulary/spec-values.ts';

/** Roles from most to least powerful; a role may do what any role after it may. */
export { WORKSPACE_ROLES };

export const WorkspaceRoleSchema = z.enum(WORKSPACE_ROLES, `must be one of ${WORKSPACE_ROLES.join(', ')}`);

/** `PATCH /v1/workspaces/{slug}/members/{user_id}`: JSON Merge Patch over the writable fields. */
export const UpdateMemberBodySchema = z.strictObject({
  role: WorkspaceRoleSchema.optional(),
});
