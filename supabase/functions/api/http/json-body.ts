/**
 * Reads the request's JSON body and validates it with a feature's zod schema. Unknown fields are
 * rejected (no mass assignment): at the top level always, in nested objects when the schema declares them
 * with `z.strictObject`. Every broken rule is named in `errors[]` of a 422.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { toFieldErrors } from './field-errors.ts';

export async function readJsonBody<Shape extends z.core.$ZodShape, E extends AppEnv = AppEnv>(
  c: Context<E>,
  schema: z.ZodObject<Shape>,
): Promise<z.output<z.ZodObject<Shape, z.core.$strict>>> {
  const body = await parseJson(c);
  const result = schema.strict().safeParse(body);
  if (result.success) return result.data;
  throw new AppError('validation_failed', undefined, {
    errors: toFieldErrors(result.error.issues, 'body', body),
  });
}

/** Parses the body once (Hono caches it); the body guard calls this before any route runs. */
export async function parseJson<E extends AppEnv>(c: Context<E>): Promise<unknown> {
  try {
    return await c.req.json<unknown>();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new AppError('bad_request', 'The body is not valid JSON.');
  }
}
