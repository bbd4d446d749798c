/**
 * The rules for a label (docs/product.md#validation), written once: the API validates with them and the web's
 * forms do too. Imports nothing but zod, so the browser bundle can import this file as is.
 */
import { z } from 'zod';

export const LABEL_NAME_LENGTH = { min: 1, max: 32 } as const;

export const LabelNameSchema = z
  .string()
  .trim()
  .min(LABEL_NAME_LENGTH.min, 'must not be empty')
  .max(LABEL_NAME_LENGTH.max, `must be at most ${LABEL_NAME_LENGTH.max} characters`);

/** `#rrggbb`; upper-case digits are accepted and stored in lower case, so one color has one spelling. */
export const LabelColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a color written #rrggbb')
  .transform((color) => color.toLowerCase());

export const CreateLabelBodySchema = z.strictObject({
  name: LabelNameSchema,
  color: LabelColorSchema,
});

/** `PATCH …/labels/{id}`: JSON Merge Patch over the writable fields. */
export const UpdateLabelBodySchema = z.strictObject({
  name: LabelNameSchema.optional(),
  color: LabelColorSchema.optional(),
});
