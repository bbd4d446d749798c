/**
 * A project key's rule (openapi.yaml's ProjectKey), without zod: the API's schema, its path parameters and
 * the board's first load all ask this one function; new projects and imports take the suggestion.
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

/**
 * A key suggested from a project's name, as people usually pick them: "Engineering" → ENG,
 * "Web platform" → WP. Empty when the name gives no key the API would take (it must start with a letter).
 */
export function suggestProjectKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const start = words.findIndex((word) => /^[A-Z]/.test(word));
  if (start === -1) return '';
  const rest = words.slice(start);
  const key = rest.length === 1 ? (rest[0] ?? '').slice(0, 3) : rest.map((word) => word.charAt(0)).join('');
  const trimmed = key.slice(0, PROJECT_KEY.maxLength);
  return trimmed.length >= PROJECT_KEY.minLength ? trimmed : '';
}
