import { lengthAndShape, pathSchema, text } from '../lib/routing/url-rules.ts';
import { pathParams } from '../lib/routing/route-params.ts';

/**
 * The path parameters of the workspace screens, with the API's rules for a slug and a project key
 * (WorkspaceSlugSchema, ProjectKeySchema) repeated without zod, so the board's first load does without it
 * (decision 0028); app/url-rules-agree.test.ts holds them to the same answers as the API's schemas.
 */

const RESERVED_WORKSPACE_SLUGS: readonly string[] = [
  'api',
  'app',
  'admin',
  'new',
  'settings',
  'account',
  'invite',
  'docs',
  'sign-in',
  'sign-up',
  'www',
];

const isSlugShape = lengthAndShape(3, 40, /^[a-z0-9]+(-[a-z0-9]+)*$/);
const slug = text((value) => isSlugShape(value) && !RESERVED_WORKSPACE_SLUGS.includes(value));
const key = text(lengthAndShape(2, 10, /^[A-Z][A-Z0-9]+$/));
/** A task's number, as zod's `coerce.number().int().min(1)` reads it (`Number` of the segment). */
const number = (raw: unknown): number | undefined => {
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
};

export const workspaceParams = pathParams(pathSchema({ slug }));

export const boardParams = pathParams(pathSchema({ slug, key }));

export const taskParams = pathParams(pathSchema({ slug, key, number }));

/** Any token: one that cannot be an invitation's is the API's `404`, which the page explains. */
export const inviteParams = pathParams(pathSchema({ token: text() }));
