/**
 * The rules for an avatar (docs/product.md#validation), written once: the API validates with them and the
 * web's account settings do too, before uploading. Imports nothing but zod, the limits and the rules of any
 * uploaded file, so the browser bundle can import it.
 */
import { z } from 'zod';
import { AVATAR_MAX_BYTES } from '../../_shared/limits.ts';
import { ContentTypeSchema, SizeSchema } from '../files/files.schemas.ts';

export const AVATAR_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const CreateAvatarUploadBodySchema = z.strictObject({
  content_type: ContentTypeSchema,
  size_bytes: SizeSchema,
});

export const isAvatarContentType = (type: string): type is (typeof AVATAR_CONTENT_TYPES)[number] =>
  (AVATAR_CONTENT_TYPES as readonly string[]).includes(type);

export { AVATAR_MAX_BYTES };
