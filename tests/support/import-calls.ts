/**
 * Imports through the API, as an integrator sends them: a multipart form with `source`, `file`,
 * `dry_run` and, when given, `options` as a JSON part. Answers go through the typed client, so they are
 * checked against openapi.yaml; `previewIn` and `importIn` say which of the two successes came back.
 */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer, responseOf, type TypedResponse } from './api-client.ts';

export type ImportPreview = components['schemas']['ImportPreview'];
export type Import = components['schemas']['Import'];
export type ImportOptions = components['schemas']['ImportOptions'];

export interface ImportCall {
  source: string;
  /** The file's content; bytes are sent as they are. */
  file: string | Uint8Array;
  dryRun: boolean;
  options?: Partial<ImportOptions> | string;
  fileName?: string;
}

export function importForm({ source, file, dryRun, options, fileName = 'board.json' }: ImportCall): FormData {
  const form = new FormData();
  form.set('source', source);
  form.set('dry_run', String(dryRun));
  form.set('file', new Blob([file]), fileName);
  if (options !== undefined) {
    const text = typeof options === 'string' ? options : JSON.stringify(options);
    form.set('options', new Blob([text], { type: 'application/json' }));
  }
  return form;
}

type ImportAnswer = TypedResponse<ImportPreview | Import>;

/** The preview a dry run answered (200), or the test fails. */
export function previewIn(response: ImportAnswer): ImportPreview {
  expect(response.status, response.text).toBe(200);
  if (response.body.object !== 'import_preview') throw new Error('expected a preview');
  return response.body;
}

/** The import a real run answered (201), or the test fails. */
export function importIn(response: ImportAnswer): Import {
  expect(response.status, response.text).toBe(201);
  if (response.body.object !== 'import') throw new Error('expected an import');
  return response.body;
}

export const importCalls = (app: Hono<AppEnv>) => {
  const client = apiClient(app);
  const send = (token: string, slug: string, form: FormData): Promise<ImportAnswer> =>
    responseOf(
      client.POST('/v1/workspaces/{slug}/imports', {
        params: { path: { slug } },
        headers: bearer(token),
        // The form is the body; openapi-fetch sends FormData with its own multipart Content-Type.
        body: { source: 'trello', file: '', dry_run: 'true' },
        bodySerializer: () => form,
      }),
    );
  return {
    send,
    run: (token: string, slug: string, call: ImportCall) => send(token, slug, importForm(call)),
    get: (token: string, slug: string, id: string) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/imports/{id}', {
          params: { path: { slug, id } },
          headers: bearer(token),
        }),
      ),
  };
};
