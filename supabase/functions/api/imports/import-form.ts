/**
 * Reads an import's multipart form (openapi.yaml's CreateImport): `source`, `file`, `dry_run` and the
 * optional `options` JSON, each checked, every broken rule named in one 422 as a JSON body's would be.
 * The file must be UTF-8 text (a byte order mark is dropped) without NUL characters.
 */
import type { Context } from 'hono';
import { AppError, type FieldError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { toFieldErrors } from '../http/field-errors.ts';
import type { ImportSourceKind } from './import-source.ts';
import {
  DryRunSchema,
  ImportOptionsSchema,
  ImportSourceSchema,
  type ImportOptionsInput,
} from './imports.schemas.ts';

export interface ImportForm {
  source: ImportSourceKind;
  dryRun: boolean;
  options: ImportOptionsInput;
  /** The file's text. */
  text: string;
  /** The file's name as uploaded. */
  fileName: string;
}

const FIELDS = new Set(['source', 'file', 'dry_run', 'options']);

export async function readImportForm<E extends AppEnv>(c: Context<E>): Promise<ImportForm> {
  const form = await formOf(c);
  const errors: FieldError[] = [...form.keys()]
    .filter((key) => !FIELDS.has(key))
    .map((key) => ({ path: `body.${key}`, code: 'unknown_field', message: `Unknown field "${key}".` }));
  const source = ImportSourceSchema.safeParse(textField(form, 'source'));
  const dryRun = DryRunSchema.safeParse(textField(form, 'dry_run'));
  const options = await optionsOf(form.get('options'));
  const file = form.get('file');
  const text = await fileText(file);
  if (!source.success)
    errors.push(...toFieldErrors(source.error.issues, 'body', undefined).map(at('source')));
  if (!dryRun.success)
    errors.push(...toFieldErrors(dryRun.error.issues, 'body', undefined).map(at('dry_run')));
  if ('error' in options) errors.push(...options.error);
  if (typeof text !== 'string') errors.push(text);
  if (
    errors.length > 0 ||
    !source.success ||
    !dryRun.success ||
    'error' in options ||
    typeof text !== 'string'
  ) {
    throw new AppError('validation_failed', undefined, { errors });
  }
  const fileName = file instanceof File ? file.name : '';
  return { source: source.data, dryRun: dryRun.data, options: options.data, text, fileName };
}

async function formOf<E extends AppEnv>(c: Context<E>): Promise<FormData> {
  try {
    return await c.req.formData();
  } catch {
    throw new AppError('bad_request', 'The body is not a well-formed multipart/form-data form.');
  }
}

const at =
  (field: string) =>
  (error: FieldError): FieldError => ({
    ...error,
    path: `body.${field}`,
    code: error.code === 'invalid_type' ? 'required' : error.code,
  });

function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** The options part, sent as a string or as a JSON file part (as FormData sends a Blob). */
async function optionsOf(
  value: File | string | null,
): Promise<{ data: ImportOptionsInput } | { error: FieldError[] }> {
  if (value === null) return { data: ImportOptionsSchema.parse({}) };
  const text = typeof value === 'string' ? value : await value.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: [{ path: 'body.options', code: 'invalid_json', message: 'must be a JSON object' }] };
  }
  const result = ImportOptionsSchema.safeParse(parsed);
  if (result.success) return { data: result.data };
  const errors = toFieldErrors(result.error.issues, 'body', parsed).map((error) => ({
    ...error,
    path: error.path.replace(/^body/, 'body.options'),
  }));
  return { error: errors };
}

async function fileText(value: File | string | null): Promise<string | FieldError> {
  if (value === null || typeof value === 'string') {
    return { path: 'body.file', code: 'required', message: 'must be a file' };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(await value.arrayBuffer());
    if (text.includes('\0')) throw new Error('NUL');
    return text;
  } catch {
    return { path: 'body.file', code: 'invalid_format', message: 'must be a text file in UTF-8' };
  }
}
