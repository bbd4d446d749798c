/**
 * A workspace slug's rule (openapi.yaml's CreateWorkspace.slug, and the words no workspace may take),
 * without zod: the API's schema and the board's first load ask this one function.
 */
import { WORKSPACE_SLUG } from './spec-values.ts';

export { WORKSPACE_SLUG };

/** Slugs that would collide with the web app's own routes or read as official. */
export const RESERVED_WORKSPACE_SLUGS: readonly string[] = [
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

/** The length and characters a slug must have; reserved words aside. */
export function hasWorkspaceSlugShape(value: string): boolean {
  return (
    value.length >= WORKSPACE_SLUG.minLength &&
    value.length <= WORKSPACE_SLUG.maxLength &&
    WORKSPACE_SLUG.pattern.test(value)
  );
}

export function isWorkspaceSlug(value: string): boolean {
  return hasWorkspaceSlugShape(value) && !RESERVED_WORKSPACE_SLUGS.includes(value);
}
