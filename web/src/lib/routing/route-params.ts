import { notFound } from '@tanstack/react-router';

/**
 * Typed, validated route parameters for TanStack Router from any Standard Schema (zod's, or the tiny
 * zod-free ones of `url-rules.ts` that the board's first load uses), so a screen reads `params.key` and
 * `search.status` as the types its queries take.
 */

/** The part of the Standard Schema interface (https://standardschema.dev) this needs; zod implements it. */
export interface UrlSchema<Input, Output> {
  readonly '~standard': {
    readonly validate: (value: unknown) => UrlSchemaResult<Output> | Promise<UrlSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type UrlSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly UrlSchemaIssue[] };

interface UrlSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

type OutputOf<Schema> = Schema extends UrlSchema<unknown, infer Output> ? Output : never;

function validate<Output>(schema: UrlSchema<unknown, Output>, value: unknown): UrlSchemaResult<Output> {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) throw new TypeError('A route parameter schema must be synchronous.');
  return result;
}

function firstKey(issue: UrlSchemaIssue): PropertyKey | undefined {
  const first = issue.path?.[0];
  return typeof first === 'object' ? first.key : first;
}

type SearchSchema = UrlSchema<Record<string, unknown>, object>;

/**
 * A route's `validateSearch`. Search parameters are for filters anyone can edit or keep in an old link,
 * so one the schema refuses is dropped (the screen opens with that filter unset) instead of failing the
 * whole screen; the schema's defaults fill in what is missing.
 */
export function searchValidator<Schema extends SearchSchema>(
  schema: Schema,
): (search: Record<string, unknown>) => OutputOf<Schema> {
  return (search) => {
    const first = validate(schema, search);
    if (!first.issues) return first.value as OutputOf<Schema>;
    const refused = new Set(first.issues.map(firstKey));
    const kept = Object.fromEntries(Object.entries(search).filter(([name]) => !refused.has(name)));
    const second = validate(schema, kept);
    if (second.issues) throw new TypeError(second.issues.map((issue) => issue.message).join('; '));
    return second.value as OutputOf<Schema>;
  };
}

type ParamsSchema = UrlSchema<Record<string, string>, Record<string, string | number>>;

/**
 * A route's `params` for its `$name` segments: parsed with the schema, where a value it refuses (a
 * mistyped task key) is "not found" rather than a crash, and written back into the path as text.
 */
export function pathParams<Schema extends ParamsSchema>(schema: Schema) {
  return {
    parse: (raw: Record<string, string>): OutputOf<Schema> => {
      const parsed = validate(schema, raw);
      if (parsed.issues) throw notFound();
      return parsed.value as OutputOf<Schema>;
    },
    stringify: (params: OutputOf<Schema>) =>
      Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])) as {
        [Name in keyof OutputOf<Schema>]: string;
      },
  };
}
