/**
 * The rules of any uploaded file, attachment or avatar, written once. Imports nothing but zod, so the
 * browser bundle can import it.
 */
import { z } from 'zod';

/** A MIME type as declared; whether it is allowed is its own answer (`415`), not a field error. */
export const ContentTypeSchema = z
  .string()
  .max(255, 'must be at most 255 characters')
  .transform((type) => type.trim().toLowerCase());

/** A size in bytes; over the limit is its own answer (`413`), not a field error. */
export const SizeSchema = z.number().int('must be a whole number of bytes').min(1, 'must be at least 1 byte');
