import type { UrlSchema } from './route-params.ts';

/**
 * Zod-free rules for the values of a URL: the board's first load parses its address with these, so that
 * zod (about 29 KiB gzipped) is not part of it (decision 0028). Where a rule repeats one of the API's
 * schemas, a test holds the two to the same answers (app/url-rules-agree.test.ts).
 */

/** What a value of the URL reads as, or `undefined` when the rule refuses it. */
export type UrlRule<T> = (raw: unknown) => T | undefined;

type Outputs<Shape> = { [Name in keyof Shape]: Shape[Name] extends UrlRule<infer T> ? T : never };

/** Path segments: every one must be there and pass its rule. */
export function pathSchema<Shape extends Record<string, UrlRule<string | number>>>(
  shape: Shape,
): UrlSchema<Record<string, string>, Outputs<Shape>> {
  return schemaOf(shape, false) as UrlSchema<Record<string, string>, Outputs<Shape>>;
}

/** Search parameters: each may be missing; one its rule refuses is an issue at its name. */
export function searchSchema<Shape extends Record<string, UrlRule<unknown>>>(
  shape: Shape,
): UrlSchema<Record<string, unknown>, Partial<Outputs<Shape>>> {
  return schemaOf(shape, true) as UrlSchema<Record<string, unknown>, Partial<Outputs<Shape>>>;
}

function schemaOf(shape: Record<string, UrlRule<unknown>>, optional: boolean): UrlSchema<unknown, unknown> {
  return {
    '~standard': {
      validate: (input) => {
        const source = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
        const value: Record<string, unknown> = {};
        const issues: { message: string; path: string[] }[] = [];
        for (const [name, rule] of Object.entries(shape)) {
          const raw = source[name];
          if (raw === undefined && optional) continue;
          const read = raw === undefined ? undefined : rule(raw);
          if (read === undefined) issues.push({ message: `${name} is not valid`, path: [name] });
          else value[name] = read;
        }
        return issues.length > 0 ? { issues } : { value };
      },
    },
  };
}

/** Text that passes `check`. */
export function text(check: (value: string) => boolean = () => true): UrlRule<string> {
  return (raw) => (typeof raw === 'string' && check(raw) ? raw : undefined);
}

/** Any value taken as text, as zod's `coerce.string()` does (the router reads `?q=42` as a number). */
export function coercedText(check: (value: string) => boolean): UrlRule<string> {
  return (raw) => (check(String(raw)) ? String(raw) : undefined);
}

/** Exactly one of `values`. */
export function oneOf<const Values extends readonly string[]>(values: Values): UrlRule<Values[number]> {
  return (raw) => (values.includes(raw as string) ? (raw as Values[number]) : undefined);
}

/** zod's `uuid()`: RFC 9562 versions 1–8, and the nil and max UUIDs. */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
