/**
 * The rules for a project (docs/product.md#validation), written once: the API validates with them and the
 * web's forms do too. Imports nothing but zod and the shared vocabulary, so the browser bundle can import
 * this file as is.
 */
import { z } from 'zod';
import { PROJECT_KEY } from '../../_shared/vocabulary/project-key.ts';

export const PROJECT_NAME_LENGTH = { min: 1, max: 80 } as const;
export const PROJECT_DESCRIPTION_MAX_LENGTH = 20_000;

/** Taken exactly as typed: `eng` is refused rather than upper-cased, so a key has one spelling. */
export const ProjectKeySchema = z
  .string()
  .min(PROJECT_KEY.minLength, `must be at least ${PROJECT_KEY.minLength} characters`)
  .max(PROJECT_KEY.maxLength, `must be at most ${PROJECT_KEY.maxLength} characters`)
  .regex(PROJECT_KEY.pattern, 'must be an upper-case letter followed by upper-case letters or digits');

export const ProjectNameSchema = z
  .string()
  .trim()
  .min(PROJECT_NAME_LENGTH.min, 'must not be empty')
  .max(PROJECT_NAME_LENGTH.max, `must be at most ${PROJECT_NAME_LENGTH.max} characters`);

/** Markdown; empty means none. Not nullable: a merge patch clears it with `""`. */
export const ProjectDescriptionSchema = z
  .string()
  .max(PROJECT_DESCRIPTION_MAX_LENGTH, `must be at most ${PROJECT_DESCRIPTION_MAX_LENGTH} characters`);

export const CreateProjectBodySchema = z.strictObject({
  key: ProjectKeySchema,
  name: ProjectNameSchema,
  description: ProjectDescriptionSchema.default(''),
});

/** `PATCH …/projects/{key}`: JSON Merge Patch over the writable fields. */
export const UpdateProjectBodySchema = z.strictObject({
  key: ProjectKeySchema.optional(),
  name: ProjectNameSchema.optional(),
  description: ProjectDescriptionSchema.optional(),
  archived: z.boolean().optional(),
});
