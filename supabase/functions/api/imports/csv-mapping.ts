/**
 * Which task field each column of a CSV fills. Suggested from the header's name, whatever its case,
 * spaces, `_` or `-`, with the names other tools export ("Summary", "Assignee", "Deadline", "Tags");
 * the person importing may change it. `id` is the source's own id of the row, which makes a task's
 * sourceId stable when rows move.
 */
export const CSV_FIELDS = [
  'id',
  'title',
  'description',
  'status',
  'priority',
  'assignee_email',
  'labels',
  'due_date',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
export type CsvColumnUse = CsvField | 'ignored';

/** By header, as the file spells it (trimmed): what the column fills. */
export type CsvMapping = Record<string, CsvColumnUse>;

const SYNONYMS: Readonly<Record<CsvField, readonly string[]>> = {
  id: ['id', 'task id', 'issue id', 'card id', 'item id', 'uid'],
  title: ['title', 'name', 'summary', 'task', 'task name', 'card name', 'subject', 'issue'],
  description: ['description', 'desc', 'details', 'body', 'notes', 'content'],
  status: ['status', 'state', 'column', 'list', 'list name', 'stage'],
  priority: ['priority', 'prio', 'importance', 'severity'],
  assignee_email: [
    'assignee email',
    'assignee',
    'assigned to',
    'owner',
    'owner email',
    'email',
    'e mail',
    'assignee e mail',
  ],
  labels: ['labels', 'label', 'tags', 'tag', 'categories', 'category'],
  due_date: ['due date', 'due', 'deadline', 'due on', 'due by', 'due at', 'target date'],
};

const normalizeHeader = (header: string): string =>
  header
    .trim()
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ');

export function suggestCsvColumnUse(header: string): CsvColumnUse {
  const normalized = normalizeHeader(header);
  for (const field of CSV_FIELDS) {
    if (SYNONYMS[field].includes(normalized)) return field;
  }
  return 'ignored';
}

/** The suggested use of each header; a field only for the first header that suggests it. */
export function suggestCsvMapping(headers: readonly string[]): CsvMapping {
  const mapping: CsvMapping = {};
  const taken = new Set<CsvField>();
  for (const raw of headers) {
    const header = raw.trim();
    if (Object.hasOwn(mapping, header)) continue;
    const use = suggestCsvColumnUse(header);
    if (use !== 'ignored' && taken.has(use)) {
      mapping[header] = 'ignored';
    } else {
      mapping[header] = use;
      if (use !== 'ignored') taken.add(use);
    }
  }
  return mapping;
}
