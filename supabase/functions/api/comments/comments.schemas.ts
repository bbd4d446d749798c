/**
 * The rules for a comment (docs/product.md#validation), written once: the API validates with them and the
 * web's forms do too. Imports nothing but zod and import-free shared modules, so the browser bundle can
 * import this file as is.
 */
import { z } from 'zod';
import { MENTIONS_PER_TEXT } from '../../_shared/limits.ts';
import { countMentions } from '../../_shared/mentions.ts';

export const COMMENT_BODY_LENGTH = { min: 1, max: 10_000 } as const;

/** Markdown, kept as text (never rendered by the API); trimmed like every text field. */
export const CommentBodySchema = z
  .string()
  .trim()
  .min(COMMENT_BODY_LENGTH.min, 'must not be empty')
  .max(COMMENT_BODY_LENGTH.max, `must be at most ${COMMENT_BODY_LENGTH.max} characters`)
  .refine(
    (body) => countMentions(body) <= MENTIONS_PER_TEXT,
    `must mention at most ${MENTIONS_PER_TEXT} people (mentions_per_text)`,
  );

export const CreateCommentBodySchema = z.strictObject({
  body: CommentBodySchema,
});

/** `PATCH /v1/comments/{id}`: JSON Merge Patch over the writable fields. Not nullable: deleting is DELETE. */
export const UpdateCommentBodySchema = z.strictObject({
  body: CommentBodySchema.optional(),
});
