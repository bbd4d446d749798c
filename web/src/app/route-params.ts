import { isProjectKey } from '@shared/vocabulary/project-key.ts';
import { isWorkspaceSlug } from '@shared/vocabulary/workspace-slug.ts';
import { pathSchema, text } from '../lib/routing/url-rules.ts';
import { pathParams } from '../lib/routing/route-params.ts';

/**
 * The path parameters of the workspace screens. A slug and a project key pass the API's own rules
 * (the shared vocabulary, without zod, so the board's first load does without it: decision 0028).
 */
const slug = text(isWorkspaceSlug);
const key = text(isProjectKey);

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

/** Any token: one the API did not sign is its `404`, which the page explains. */
export const unsubscribeParams = pathParams(pathSchema({ token: text() }));
