/**
 * The rules for an attachment (docs/product.md#validation), written once: the API validates with them and
 * the web's upload forms do too, before uploading. Imports nothing but zod, the limits, the shared vocabulary and the rules of
 * any uploaded file, so the browser bundle can import it.
 */
import { z } from 'zod';
import type { AttachmentContentType } from '../../_shared/api-types.ts';
import { ATTACHMENT_MAX_BYTES } from '../../_shared/limits.ts';
import { ATTACHMENT_CONTENT_TYPES } from '../../_shared/vocabulary/spec-values.ts';
import { ContentTypeSchema, SizeSchema } from '../files/files.schemas.ts';

/** What attachments may be (no SVG or HTML: a browser would run their scripts), as openapi.yaml lists them. */
export { ATTACHMENT_CONTENT_TYPES };

export const FILE_NAME_LENGTH = { min: 1, max: 255 } as const;

/** A file's own name: no folders (`/`, `\`), no control characters; trimmed like every text field. */
export const FileNameSchema = z
  .string()
  .trim()
  .min(FILE_NAME_LENGTH.min, 'must not be empty')
  .max(FILE_NAME_LENGTH.max, `must be at most ${FILE_NAME_LENGTH.max} characters`)
  .refine((name) => !/[/\\]/.test(name), 'must be a file name without / or \\')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

export const CreateAttachmentBodySchema = z.strictObject({
  file_name: FileNameSchema,
  content_type: ContentTypeSchema,
  size_bytes: SizeSchema,
});

export const isAttachmentContentType = (type: string): type is AttachmentContentType =>
  (ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(type);

export { ATTACHMENT_MAX_BYTES };
