/**
 * The file read by its source's reader into the one shape (import-source.ts), with, for a CSV, what each
 * of its columns is taken for: the preview's mapping step.
 */
import type { ImportPreview } from '../../_shared/api-types.ts';
import type { ImportSource, ImportSourceKind } from './import-source.ts';
import type { ImportOptionsInput } from './imports.schemas.ts';
import { readTrelloExport } from './trello-source.ts';

export interface ReadFile {
  read: ImportSource;
  csvColumns: ImportPreview['csv_columns'];
}

export function readImportFile(form: {
  source: ImportSourceKind;
  text: string;
  options: ImportOptionsInput;
}): ReadFile {
  switch (form.source) {
    case 'trello':
      return { read: readTrelloExport(form.text), csvColumns: [] };
    default:
      throw new Error(`no reader for ${form.source} yet`);
  }
}
