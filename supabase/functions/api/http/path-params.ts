/**
 * Path parameters that must have a shape to name anything (`{id}` a UUID, `{key}` a project key). One
 * that does not names nothing: the answer is the route's own `404`, as for an address that does not
 * exist, and the value never reaches the database (which could refuse some of them, such as text with NUL).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';

export const UuidShape = z.uuid();

export function shapedPathParam<E extends AppEnv>(
  c: Context<E>,
  name: string,
  shape: z.ZodType<string>,
  notFound: () => AppError,
): string {
  const parsed = shape.safeParse(c.req.param(name));
  if (parsed.success) return parsed.data;
  throw notFound();
}
