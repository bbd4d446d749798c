/**
 * Reads the query string with a zod schema. Unknown parameters are rejected, like unknown body fields,
 * so a typo (`?limt=10`) is an error instead of silently ignored; a bad query string is `400 bad_request`.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { toFieldErrors } from './field-errors.ts';

export const NoQueryParameters = z.strictObject({});

export function readQuery<Shape extends z.core.$ZodShape, E extends AppEnv = AppEnv>(
  c: Context<E>,
  schema: z.ZodObject<Shape>,
): z.output<z.ZodObject<Shape, z.core.$strict>> {
  const query = c.req.query();
  const result = schema.strict().safeParse(query);
  if (result.success) return result.data;
  throw new AppError('bad_request', 'The query string is not valid for this operation.', {
    errors: toFieldErrors(result.error.issues, 'query', query),
  });
}
