/**
 * A CSV file read into an ImportSource: one project, named by the caller; a header row, then one task
 * per row. Which column fills which field comes from `mapping` (by header), suggested from the headers
 * when not given. The columns of the board are the distinct values of the status column in the order
 * first met (compared case-insensitively; an empty one is the "No status" column, To do).
 *
 * A task's sourceId is `csv:id:<value>` when the file has an id column and the row a value there not
 * seen before, else `csv:row:<n>`, n its 1-based row among the data rows: stable when the same file is
 * imported again, though not when rows are added above it.
 */
import { readDate } from './import-dates.ts';
import { fitDescription, fitTitle, quote } from './import-text.ts';
import { LabelCollector, limitTaskLabels } from './label-collector.ts';
import { paletteColorFor } from './label-colors.ts';
import { parseCsv, stripBom, type CsvRecord } from './csv-parse.ts';
import { CSV_FIELDS, suggestCsvMapping, type CsvField, type CsvMapping } from './csv-mapping.ts';
import { readEmail, readPriority } from './csv-values.ts';
import { suggestStatus } from './status-suggestion.ts';
import type { ImportColumn, ImportProblem, ImportSource, ImportTask } from './import-source.ts';

export { suggestCsvMapping, type CsvMapping };

/** The column of rows with no status. */
export const NO_STATUS_COLUMN: ImportColumn = { sourceId: '', name: 'No status', suggestedStatus: 'todo' };

const LABEL_SEPARATORS = /[,;|]/;

export interface CsvHeader {
  headers: string[];
  problems: ImportProblem[];
}

/** Why `text` cannot be a CSV file at all, or null. */
function notCsv(text: string): string | null {
  if (text.trim() === '') return 'the file is empty';
  if (text.includes('\u0000')) return 'the file holds NUL bytes: it is binary, not text';
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      JSON.parse(text);
      return 'the file is JSON: import a Trello or Tasklane export as such';
    } catch {
      return null;
    }
  }
  return null;
}

const fatal = (message: string): ImportProblem => ({ severity: 'error', location: 'the file', message });

/** The header row's cells, trimmed: what the person importing maps. */
export function readCsvHeader(rawText: string): CsvHeader {
  const text = stripBom(rawText);
  const why = notCsv(text);
  if (why) return { headers: [], problems: [fatal(`not a CSV file: ${why}`)] };
  const parsed = parseCsv(text, 1);
  return { headers: (parsed.records[0]?.cells ?? []).map((cell) => cell.trim()), problems: parsed.problems };
}

export function readCsv(rawText: string, name: string, mapping?: CsvMapping): ImportSource {
  const text = stripBom(rawText);
  const why = notCsv(text);
  const empty = (problems: ImportProblem[]): ImportSource => ({ projects: [], labels: [], problems });
  if (why) return empty([fatal(`not a CSV file: ${why}`)]);

  const parsed = parseCsv(text);
  const problems = [...parsed.problems];
  const [header, ...rows] = parsed.records;
  if (!header) return empty([...problems, fatal('not a CSV file: it has no header row')]);
  const headers = header.cells.map((cell) => cell.trim());
  const fields = fieldColumns(headers, mapping ?? suggestCsvMapping(headers), problems);
  if (fields.title === undefined) {
    return empty([
      ...problems,
      {
        severity: 'error',
        location: 'line 1',
        message: `no column is the title: map one of ${headers.map(quote).join(', ')} to the title`,
      },
    ]);
  }
  if (rows.length === 0) {
    return empty([
      ...problems,
      { severity: 'error', location: 'the file', message: 'has a header row but no rows' },
    ]);
  }

  const labels = new LabelCollector(problems);
  const columns = new Map<string, ImportColumn>();
  const usedIds = new Set<string>();
  const tasks: ImportTask[] = [];
  rows.forEach((row, rowIndex) => {
    if (row.cells.length !== headers.length) {
      problems.push({
        severity: 'warning',
        location: `line ${row.line}`,
        message: `has ${row.cells.length} cells where the header has ${headers.length}: ${
          row.cells.length > headers.length
            ? 'the extra ones are ignored'
            : 'the missing ones are taken as empty'
        }`,
      });
    }
    const reader = new CsvRowReader(row, headers, fields, problems);
    const title = fitTitle(reader.cell('title'), reader.at('title'), problems);
    if (title === null) return;
    const column = columnOf(reader.cell('status').trim(), columns);
    tasks.push({
      sourceId: sourceIdOf(reader.cell('id').trim(), rowIndex, usedIds, reader.at('id'), problems),
      columnId: column.sourceId,
      title,
      description: fitDescription(reader.cell('description'), reader.at('description'), problems),
      priority: reader.priority(),
      assigneeEmail: reader.assigneeEmail(),
      dueDate: reader.dueDate(),
      labelNames: reader.labels(labels),
      comments: [],
      archived: false,
    });
  });

  const project = {
    sourceId: `csv:${name}`,
    name: name.trim() || 'CSV import',
    key: null,
    description: '',
    columns: [...columns.values()],
    tasks,
  };
  return { projects: [project], labels: labels.labels(), problems };
}

type FieldColumns = Partial<Record<CsvField, number>>;

/** The index of the column each field is read from; unknown columns named in one warning. */
function fieldColumns(
  headers: readonly string[],
  mapping: CsvMapping,
  problems: ImportProblem[],
): FieldColumns {
  const fields: FieldColumns = {};
  const ignored: string[] = [];
  headers.forEach((header, index) => {
    const use = Object.hasOwn(mapping, header) ? mapping[header] : undefined;
    if (use === undefined || use === 'ignored' || !CSV_FIELDS.includes(use)) {
      if (header !== '') ignored.push(header);
    } else if (fields[use] === undefined) {
      fields[use] = index;
    } else {
      problems.push({
        severity: 'warning',
        location: `line 1, column ${quote(header)}`,
        message: `is a second ${use} column: only ${quote(headers[fields[use]] ?? '')} is read`,
      });
    }
  });
  if (ignored.length > 0) {
    problems.push({
      severity: 'warning',
      location: 'line 1',
      message: `${ignored.length === 1 ? 'this column is' : 'these columns are'} not imported: ${ignored.map(quote).join(', ')}`,
    });
  }
  return fields;
}

function columnOf(status: string, columns: Map<string, ImportColumn>): ImportColumn {
  if (status === '') {
    if (!columns.has('')) columns.set('', NO_STATUS_COLUMN);
    return NO_STATUS_COLUMN;
  }
  const key = status.toLowerCase();
  let column = columns.get(key);
  if (!column) {
    column = { sourceId: status, name: status, suggestedStatus: suggestStatus(status) };
    columns.set(key, column);
  }
  return column;
}

function sourceIdOf(
  id: string,
  rowIndex: number,
  usedIds: Set<string>,
  location: string,
  problems: ImportProblem[],
): string {
  if (id !== '' && !usedIds.has(id)) {
    usedIds.add(id);
    return `csv:id:${id}`;
  }
  if (id !== '') {
    problems.push({
      severity: 'warning',
      location,
      message: `id ${quote(id)} is on an earlier row too: this row is told apart by its row number`,
    });
  }
  return `csv:row:${rowIndex + 1}`;
}

/** One row's cells, read by field. */
class CsvRowReader {
  readonly #row: CsvRecord;
  readonly #headers: readonly string[];
  readonly #fields: FieldColumns;
  readonly #problems: ImportProblem[];

  constructor(row: CsvRecord, headers: readonly string[], fields: FieldColumns, problems: ImportProblem[]) {
    this.#row = row;
    this.#headers = headers;
    this.#fields = fields;
    this.#problems = problems;
  }

  cell(field: CsvField): string {
    const index = this.#fields[field];
    return index === undefined ? '' : (this.#row.cells[index] ?? '');
  }

  at(field: CsvField): string {
    const index = this.#fields[field];
    const header = index === undefined ? field : (this.#headers[index] ?? field);
    return `line ${this.#row.line}, column ${quote(header)}`;
  }

  #warn(field: CsvField, message: string): void {
    this.#problems.push({ severity: 'warning', location: this.at(field), message });
  }

  priority(): ImportTask['priority'] {
    const cell = this.cell('priority');
    const priority = readPriority(cell);
    if (priority === null) this.#warn('priority', `${quote(cell.trim())} is not a priority: none is set`);
    return priority ?? 'none';
  }

  assigneeEmail(): string | null {
    const cell = this.cell('assignee_email').trim();
    if (cell === '') return null;
    const email = readEmail(cell);
    if (email === null)
      this.#warn('assignee_email', `${quote(cell)} is not an e-mail address: left unassigned`);
    return email;
  }

  dueDate(): string | null {
    const cell = this.cell('due_date').trim();
    if (cell === '') return null;
    const reading = readDate(cell);
    if (reading.kind === 'invalid') {
      this.#warn('due_date', `${quote(cell)} is not a date this import reads: no due date`);
      return null;
    }
    if (reading.kind === 'ambiguous') {
      this.#warn(
        'due_date',
        `${quote(cell)} could be ${reading.date} or ${reading.alternative}: read day first, ${reading.date}`,
      );
    }
    return reading.date;
  }

  labels(collector: LabelCollector): string[] {
    const names = this.cell('labels')
      .split(LABEL_SEPARATORS)
      .map((name) => collector.add(name, paletteColorFor(name), this.at('labels')))
      .filter((name): name is string => name !== null);
    return limitTaskLabels(names, this.at('labels'), this.#problems);
  }
}
