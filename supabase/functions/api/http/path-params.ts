/**
 * Path parameters that must have a shape to name anything (`{id}` a UUID, `{key}` a project key). One
 * that does not names nothing: the answer is the route's own `404`, as for an address that does not
 * exist, and the value never reaches the database (which could refuse some of them, such as text with NUL).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import { isProjectKey } from '../../_shared/vocabulary/project-key.ts';
import type { AppEnv } from '../app-env.ts';

export const UuidShape = z.uuid();
const ProjectKeyShape = z.string().refine(isProjectKey);

/** A project's address: `/v1/workspaces/{slug}/projects/{key}`. */
export interface ProjectAddress {
  slug: string;
  key: string;
}

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

/** The `{slug}` of /v1/workspaces/{slug}/…; enterWorkspace answers `404` for one no workspace can have. */
export const slugOf = <E extends AppEnv>(c: Context<E>): string => c.req.param('slug') ?? '';

/** The project's address; a `{key}` no project could have (`eng`, `E-1`) names none. */
export function projectAddressOf<E extends AppEnv>(c: Context<E>): ProjectAddress {
  const notFound = () =>
    new AppError(
      'not_found',
      'This workspace has no project with this key: keys are 2–10 upper-case letters and digits.',
    );
  return { slug: slugOf(c), key: shapedPathParam(c, 'key', ProjectKeyShape, notFound) };
}
