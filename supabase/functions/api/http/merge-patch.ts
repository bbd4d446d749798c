/**
 * PATCH bodies are JSON Merge Patches (RFC 7396) of a resource's writable fields: a field left out stays
 * as it is, a field set to `null` is cleared (only where the writable schema allows null: elsewhere it is
 * `422 validation_failed`), any other value replaces the field, arrays included. A field that is not
 * writable, read-only ones included, is `422 validation_failed` naming it. Writable fields are scalars or
 * arrays, so the top-level merge is the whole merge.
 *
 * `application/merge-patch+json` is the type the RFC registers; `application/json` is accepted too
 * because most clients send it. Any other type, e.g. a JSON Patch (RFC 6902), is `415`.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { partialOf } from './derived-schemas.ts';
import { readJsonBody } from './json-body.ts';

export const MERGE_PATCH_MEDIA_TYPES: readonly string[] = [
  'application/merge-patch+json',
  'application/json',
];

/** The merge patch in the body, checked against `writable`, the schema of the fields a PATCH may set. */
export async function readMergePatch<Shape extends z.core.$ZodShape, E extends AppEnv = AppEnv>(
  c: Context<E>,
  writable: z.ZodObject<Shape>,
) {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== undefined && !MERGE_PATCH_MEDIA_TYPES.includes(mediaType)) {
    throw new AppError(
      'unsupported_media_type',
      'Send the changes as a JSON Merge Patch (RFC 7396), with Content-Type: application/merge-patch+json or application/json.',
    );
  }
  return readJsonBody(c, partialOf(writable));
}
