/** Turns zod issues into the spec's `errors[]`: a dotted path, a stable code and a message. */
import type { z } from 'zod';
import type { FieldError } from '../../_shared/errors.ts';

export type Location = 'body' | 'query' | 'header';

export function toFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  location: Location,
  input: unknown,
): FieldError[] {
  return issues.flatMap((issue) => {
    const at = (path: readonly PropertyKey[]) => [location, ...path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: at([...issue.path, key]),
        code: 'unknown_field',
        message: `Unknown field "${key}".`,
      }));
    }
    return [{ path: at(issue.path), code: codeOf(issue, input), message: issue.message }];
  });
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return isPresent(input, issue.path) ? 'invalid_type' : 'required';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : issue.origin === 'array' ? 'too_many' : 'too_large';
    case 'too_small':
      return issue.origin === 'string' ? 'too_short' : issue.origin === 'array' ? 'too_few' : 'too_small';
    case 'invalid_format':
      return 'invalid_format';
    case 'invalid_value':
      // A missing enum field is reported by zod as a value outside the enum.
      return isPresent(input, issue.path) ? 'invalid_value' : 'required';
    default:
      return 'invalid';
  }
}

function isPresent(input: unknown, path: readonly PropertyKey[]): boolean {
  let node: unknown = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = Reflect.get(node, key);
  }
  return node !== undefined;
}
