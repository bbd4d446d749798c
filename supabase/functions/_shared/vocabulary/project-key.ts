/**
 * A project key's rule (openapi.yaml's ProjectKey), without zod: the API's schema, its path parameters and
 * the board's first load all ask this one function.
 */
import { PROJECT_KEY } from './spec-values.ts';

export { PROJECT_KEY };

/** Taken exactly as typed: `eng` is not a key, so a key has one spelling. */
export function isProjectKey(value: string): boolean {
  return (
    value.length >= PROJECT_KEY.minLength &&
    value.length <= PROJECT_KEY.maxLength &&
    PROJECT_KEY.pattern.test(value)
  );
}
