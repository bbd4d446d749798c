/**
 * Reads the query string with a zod schema. Unknown parameters are rejected, like unknown body fields,
 * so a typo (`?limt=10`) is an error instead of silently ignored; a bad query string is `400 bad_request`.
 * The platform's own parameters are the exception: they are left to the platform.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError, type FieldError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { strictOf } from './derived-schemas.ts';
import { toFieldErrors } from './field-errors.ts';

export const NoQueryParameters = z.strictObject({});

/**
 * Parameters meant for the platform, not for us: Supabase runs a function in the region that
 * `forceFunctionRegion` names (regional invocation where the `x-region` header cannot be sent).
 */
const PLATFORM_PARAMETERS = new Set(['forceFunctionRegion']);

export function readQuery<Shape extends z.core.$ZodShape, E extends AppEnv = AppEnv>(
  c: Context<E>,
  schema: z.ZodObject<Shape>,
): z.output<z.ZodObject<Shape, z.core.$strict>> {
  const query = Object.fromEntries(
    Object.entries(c.req.query()).filter(([name]) => !PLATFORM_PARAMETERS.has(name)),
  );
  const result = strictOf(schema).safeParse(query);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error.issues, 'query', query);
  throw new AppError('bad_request', detailOf(errors), { errors });
}

/** The one broken rule in so many words, or a summary when there are several. */
function detailOf(errors: readonly FieldError[]): string {
  const [only] = errors;
  if (!only || errors.length > 1) return 'The query string is not valid for this operation.';
  const name = only.path.replace(/^query\./, '');
  if (only.code === 'unknown_field') return `This operation takes no query parameter "${name}".`;
  return `Query parameter "${name}": ${only.message.replace(/\.?$/, '.')}`;
}
