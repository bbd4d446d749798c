import type { components } from '@api-spec/schema.d.ts';

export type ImportSource = components['schemas']['ImportSource'];
/** Every field may be left out for the preview's suggestion (`archived` defaults to `skip`). */
export type ImportOptions = Partial<components['schemas']['ImportOptions']>;
export type ImportPreview = components['schemas']['ImportPreview'];
export type Import = components['schemas']['Import'];
export type ImportProblem = components['schemas']['ImportProblem'];
export type CsvField = ImportPreview['csv_columns'][number]['field'];

/** What one import request sends: the file as read, and the mapping chosen so far. */
export interface ImportRequest {
  source: ImportSource;
  file: File;
  options: ImportOptions;
}
