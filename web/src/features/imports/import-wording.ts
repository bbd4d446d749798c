import type { CsvField, ImportPreview, ImportSource } from './import-types.ts';

export const SOURCE_LABELS: Readonly<Record<ImportSource, string>> = {
  trello: 'Trello board (JSON export)',
  csv: 'CSV',
  tasklane: 'Tasklane export',
};

export const SOURCE_HINTS: Readonly<Record<ImportSource, string>> = {
  trello: 'In Trello: Menu → Print, export and share → Export as JSON.',
  csv: 'A table with a header row, comma, semicolon or tab separated.',
  tasklane: 'A workspace export from Settings → Export.',
};

export const CSV_FIELD_LABELS: Readonly<Record<CsvField, string>> = {
  id: 'Source id',
  title: 'Title',
  description: 'Description',
  status: 'Status',
  priority: 'Priority',
  assignee_email: 'Assignee e-mail',
  labels: 'Labels',
  due_date: 'Due date',
  ignored: 'Ignored',
};

export const CSV_FIELDS = Object.keys(CSV_FIELD_LABELS) as CsvField[];

/** "1 project", "42 tasks". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** "Will create 1 project, 42 tasks, 6 labels, 12 comments." */
export function summarize({ counts }: ImportPreview): string {
  const parts = [
    countOf(counts.projects, 'project'),
    countOf(counts.tasks, 'task'),
    countOf(counts.labels, 'label'),
    countOf(counts.comments, 'comment'),
  ];
  return `Will create ${parts.join(', ')}.`;
}
