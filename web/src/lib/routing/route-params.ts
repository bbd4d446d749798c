import { notFound } from '@tanstack/react-router';
import * as z from 'zod/mini';

/**
 * Typed, validated route parameters for TanStack Router from zod schemas (the API's own, where it has
 * one: a workspace slug, a task key), so a screen reads `params.key` and `search.status` as the types
 * its queries take.
 */

type SearchSchema = z.core.$ZodType<object, Record<string, unknown>>;

/**
 * A route's `validateSearch`. Search parameters are for filters anyone can edit or keep in an old link,
 * so one the schema refuses is dropped (the screen opens with that filter unset) instead of failing the
 * whole screen; the schema's defaults fill in what is missing.
 */
export function searchValidator<Schema extends SearchSchema>(
  schema: Schema,
): (search: Record<string, unknown>) => z.output<Schema> {
  return (search) => {
    const first = z.safeParse(schema, search);
    if (first.success) return first.data;
    const refused = new Set(first.error.issues.map((issue) => issue.path[0]));
    const kept = Object.fromEntries(Object.entries(search).filter(([name]) => !refused.has(name)));
    return z.parse(schema, kept);
  };
}

type ParamsSchema = z.core.$ZodType<Record<string, string | number>, Record<string, string>>;

/**
 * A route's `params` for its `$name` segments: parsed with the schema, where a value it refuses (a
 * mistyped task key) is "not found" rather than a crash, and written back into the path as text.
 */
export function pathParams<Schema extends ParamsSchema>(schema: Schema) {
  return {
    parse: (raw: Record<string, string>): z.output<Schema> => {
      const parsed = z.safeParse(schema, raw);
      if (!parsed.success) throw notFound();
      return parsed.data;
    },
    stringify: (params: z.output<Schema>) =>
      Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])) as {
        [Name in keyof z.output<Schema>]: string;
      },
  };
}
