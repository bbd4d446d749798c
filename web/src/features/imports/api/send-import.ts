import { api, unwrap } from '../../../lib/api/api-client.ts';
import type { Import, ImportPreview, ImportRequest } from '../import-types.ts';

/** The multipart form the import endpoint reads; `options` goes as a JSON part. */
function importForm({ source, file, options }: ImportRequest, dryRun: boolean): FormData {
  const form = new FormData();
  form.set('source', source);
  form.set('dry_run', String(dryRun));
  form.set('file', file, file.name);
  if (Object.keys(options).length > 0) {
    form.set('options', new Blob([JSON.stringify(options)], { type: 'application/json' }));
  }
  return form;
}

/** POST /v1/workspaces/{slug}/imports; the form is the body, sent with its own multipart Content-Type. */
export function sendImport(slug: string, request: ImportRequest, dryRun: boolean) {
  const form = importForm(request, dryRun);
  return unwrap(
    api.POST('/v1/workspaces/{slug}/imports', {
      params: { path: { slug } },
      body: { source: request.source, file: '', dry_run: dryRun ? 'true' : 'false' },
      bodySerializer: () => form,
    }),
  );
}

export async function previewImport(slug: string, request: ImportRequest): Promise<ImportPreview> {
  const answer = await sendImport(slug, request, true);
  if (answer.object !== 'import_preview') throw new TypeError('The dry run did not answer a preview.');
  return answer;
}

export async function runImport(slug: string, request: ImportRequest): Promise<Import> {
  const answer = await sendImport(slug, request, false);
  if (answer.object !== 'import') throw new TypeError('The import did not answer an import.');
  return answer;
}
