/**
 * The rules for a workspace (docs/product.md#validation), written once: the API validates with them and the
 * web's forms do too. Imports nothing but zod and the shared vocabulary, so the browser bundle can import
 * this file as is.
 */
import { z } from 'zod';
import { RESERVED_WORKSPACE_SLUGS, WORKSPACE_SLUG } from '../../_shared/vocabulary/workspace-slug.ts';

export const WORKSPACE_NAME_LENGTH = { min: 1, max: 80 } as const;
export const WorkspaceNameSchema = z
  .string()
  .trim()
  .min(WORKSPACE_NAME_LENGTH.min, 'must not be empty')
  .max(WORKSPACE_NAME_LENGTH.max, `must be at most ${WORKSPACE_NAME_LENGTH.max} characters`);

export const WorkspaceSlugSchema = z
  .string()
  .min(WORKSPACE_SLUG.minLength, `must be at least ${WORKSPACE_SLUG.minLength} characters`)
  .max(WORKSPACE_SLUG.maxLength, `must be at most ${WORKSPACE_SLUG.maxLength} characters`)
  .regex(WORKSPACE_SLUG.pattern, 'may hold only a-z, 0-9 and single hyphens between them')
  .refine((slug) => !RESERVED_WORKSPACE_SLUGS.includes(slug), 'is reserved; choose another');

export const CreateWorkspaceBodySchema = z.strictObject({
  name: WorkspaceNameSchema,
  slug: WorkspaceSlugSchema,
});

/** `PATCH /v1/workspaces/{slug}`: JSON Merge Patch over the writable fields. */
export const UpdateWorkspaceBodySchema = z.strictObject({
  name: WorkspaceNameSchema.optional(),
  slug: WorkspaceSlugSchema.optional(),
  require_mfa: z.boolean().optional(),
});

/** A slug the way people type it, made into one that passes the rules where it can (the web suggests it). */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, WORKSPACE_SLUG.maxLength)
    .replace(/-+$/, '');
}
