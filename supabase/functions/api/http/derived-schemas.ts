/**
 * The forms of a route's zod schema that reading a request needs (strict, partial), each made once per
 * schema: a new zod schema compiles its parser on first use, so deriving them per request compiled
 * parsers on every request (a tenth of a task list's time in the API).
 */
import type { z } from 'zod';

const strictForms = new WeakMap<z.ZodObject, z.ZodObject>();
const partialForms = new WeakMap<z.ZodObject, z.ZodObject>();

/** `schema.strict()`: unknown keys are refused. */
export function strictOf<Shape extends z.core.$ZodShape>(
  schema: z.ZodObject<Shape>,
): z.ZodObject<Shape, z.core.$strict> {
  return derived(strictForms, schema, () => schema.strict());
}

/** `schema.partial()`: every key may be left out. */
export function partialOf<Shape extends z.core.$ZodShape>(schema: z.ZodObject<Shape>) {
  return derived(partialForms, schema, () => schema.partial());
}

function derived<Form extends z.ZodObject>(
  forms: WeakMap<z.ZodObject, z.ZodObject>,
  schema: z.ZodObject,
  derive: () => Form,
): Form {
  const known = forms.get(schema) as Form | undefined;
  if (known) return known;
  const form = derive();
  forms.set(schema, form);
  return form;
}
