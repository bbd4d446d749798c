/**
 * The file read by its source's reader into the one shape (import-source.ts), with, for a CSV, what each
 * of its columns is taken for: the preview's mapping step.
 */
import type { ImportPreview } from '../../_shared/api-types.ts';
import { suggestCsvMapping } from './csv-mapping.ts';
import { readCsv, readCsvHeader } from './csv-source.ts';
import type { ImportSource, ImportSourceKind } from './import-source.ts';
import type { ImportOptionsInput } from './imports.schemas.ts';
import { readTasklaneExport } from './tasklane-source.ts';
import { readTrelloExport } from './trello-source.ts';

export interface ReadFile {
  read: ImportSource;
  csvColumns: ImportPreview['csv_columns'];
}

export interface ImportFile {
  source: ImportSourceKind;
  text: string;
  /** The file's name as uploaded: a CSV's project is named after it. */
  fileName: string;
  options: ImportOptionsInput;
}

export function readImportFile({ source, text, fileName, options }: ImportFile): ReadFile {
  switch (source) {
    case 'trello':
      return { read: readTrelloExport(text), csvColumns: [] };
    case 'tasklane':
      return { read: readTasklaneExport(text), csvColumns: [] };
    case 'csv':
      return readCsvFile(text, fileName, options.csv_columns ?? {});
  }
}

/** The person's mapping where they gave one, the suggestion for every other header. */
function readCsvFile(text: string, fileName: string, chosen: NonNullable<ImportOptionsInput['csv_columns']>) {
  const { headers } = readCsvHeader(text);
  const mapping = { ...suggestCsvMapping(headers), ...chosen };
  return {
    read: readCsv(text, projectNameOf(fileName), mapping),
    csvColumns: headers.map((header) => ({ header, field: mapping[header] ?? 'ignored' })),
  };
}

/** `Roadmap 2027.csv` → `Roadmap 2027`. */
function projectNameOf(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, '').trim() || 'Imported CSV';
}
