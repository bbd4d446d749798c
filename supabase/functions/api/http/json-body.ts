/**
 * Reads the request's JSON body and validates it with a feature's zod schema. Unknown fields are
 * rejected (no mass assignment): at the top level always, in nested objects when the schema declares them
 * with `z.strictObject`. Every broken rule is named in `errors[]` of a 422.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, type FieldError } from '../../_shared/errors.ts';
import { JSON_BODY_MAX_DEPTH } from '../../_shared/limits.ts';
import type { AppEnv } from '../app-env.ts';
import { strictOf } from './derived-schemas.ts';
import { toFieldErrors } from './field-errors.ts';

export async function readJsonBody<Shape extends z.core.$ZodShape, E extends AppEnv = AppEnv>(
  c: Context<E>,
  schema: z.ZodObject<Shape>,
): Promise<z.output<z.ZodObject<Shape, z.core.$strict>>> {
  const body = await parseJson(c);
  const result = strictOf(schema).safeParse(body);
  const nulErrors = nulCharacterErrors(body, 'body');
  if (result.success && nulErrors.length === 0) return result.data;
  const fieldErrors = result.success ? [] : toFieldErrors(result.error.issues, 'body', body);
  throw new AppError('validation_failed', undefined, { errors: [...nulErrors, ...fieldErrors] });
}

/**
 * Text with a NUL character (`\u0000`) is valid JSON, but Postgres cannot store it: every string in a
 * body, keys included, is refused with it rather than failing at the database.
 */
function nulCharacterErrors(body: unknown, root: string): FieldError[] {
  const errors: FieldError[] = [];
  // Iterative, not recursive: a hostile body may nest thousands of levels deep.
  const pending: [unknown, string][] = [[body, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string' && value.includes('\0')) errors.push(nulError(path));
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (key.includes('\0')) errors.push(nulError(at));
      else pending.push([item, at]);
    }
  }
  return errors;
}

function nulError(path: string): FieldError {
  return { path, code: 'invalid_character', message: 'must not contain the NUL character (\\u0000)' };
}

/**
 * Refuses a body that nests arrays and objects more than JSON_BODY_MAX_DEPTH levels deep with a 400:
 * whatever walks it later (validation, the idempotency fingerprint, JSON.stringify) may recurse.
 * Iterative itself, as the NUL check is.
 */
export function refuseDeepNesting(body: unknown): void {
  const pending: [unknown, number][] = [[body, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth === JSON_BODY_MAX_DEPTH) {
      throw new AppError('bad_request', `The body is nested more than ${JSON_BODY_MAX_DEPTH} levels deep.`, {
        errors: [
          {
            path: 'body',
            code: 'too_deep',
            message: `must nest arrays and objects at most ${JSON_BODY_MAX_DEPTH} levels deep`,
          },
        ],
      });
    }
    for (const item of Object.values(value)) pending.push([item, depth + 1]);
  }
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
