/**
 * The MIME type to declare for a file the browser hands over. Browsers take it from the extension and
 * differ: an `.md` file is `text/markdown` in one, `''` in another; Windows names ZIP and CSV files its
 * own way. Known aliases are mapped to the standard type, and an empty type is guessed from the extension.
 */
const ALIASES: Readonly<Record<string, string>> = {
  'application/x-zip-compressed': 'application/zip',
  'image/jpg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'text/x-log': 'text/plain',
};

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

export function fileType(file: { name: string; type: string }): string {
  const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (type === '') return BY_EXTENSION[extension] ?? '';
  // Windows calls a CSV file an Excel sheet.
  if (type === 'application/vnd.ms-excel' && extension === 'csv') return 'text/csv';
  return ALIASES[type] ?? type;
}
