import * as z from 'zod/mini';
import { ApiError } from '../api/api-error.ts';

/** One sentence per field that breaks a rule, for the form to show next to that field. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export type Validation<Data, Field extends string> =
  { ok: true; data: Data } | { ok: false; errors: FieldErrors<Field> };

/**
 * Checks form values with a shared zod schema (the API's own rules). The schemas' messages are phrases
 * such as "must be at least 10 characters"; each field's first one becomes a sentence that names it.
 */
export function validateForm<Data, Field extends string>(
  schema: z.core.$ZodType<Data>,
  values: unknown,
  labels: Readonly<Record<Field, string>>,
): Validation<Data, Field> {
  const result = z.safeParse(schema, values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors<Field> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (!isField(field, labels) || errors[field]) continue;
    errors[field] = asSentence(labels[field], issue.message);
  }
  return { ok: false, errors };
}

/** Whether a validation failed, for forms that add their own checks to the schema's. */
export function hasErrors<Field extends string>(errors: FieldErrors<Field>): boolean {
  return Object.values(errors).some(Boolean);
}

function isField<Field extends string>(key: unknown, labels: Readonly<Record<Field, string>>): key is Field {
  return typeof key === 'string' && Object.hasOwn(labels, key);
}

function asSentence(label: string, phrase: string): string {
  const text = `${label} ${phrase}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The text a form's field holds when submitted (empty when it has no such field). */
export function formText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}

/** The API's `errors[]` of a `validation_failed` answer, as sentences on the form's fields. */
export function apiFieldErrors<Field extends string>(
  error: unknown,
  labels: Readonly<Record<Field, string>>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (!(error instanceof ApiError)) return errors;
  for (const fieldError of error.errors) {
    const field = fieldError.path.replace(/^body\./, '').split('.')[0];
    if (!isField(field, labels) || errors[field]) continue;
    errors[field] = asSentence(labels[field], fieldError.message);
  }
  return errors;
}
