import { describe, expect, it } from 'vitest';
import { readCsv, readCsvHeader, suggestCsvMapping } from './csv-source.ts';
import { paletteColorFor } from './label-colors.ts';

const CSV = [
  'Summary,Description,State,Priority,Assignee,Tags,Deadline,Estimate',
  'Write the spec,"Covers imports, exports",In progress,High,ada@example.com,"spec, docs",2026-12-31,3',
  'Ship it,,Done,P0,Grace <grace@example.com>,release|docs,12/31/2026,1',
  'Plan,,,low,,,,',
  'Review,,in_review,3,not-an-email,,03/04/2026,2',
  ',,Done,,,,,',
  'Odd date,,DONE,whenever,,,next week,',
].join('\r\n');

describe('suggestCsvMapping', () => {
  it('maps headers by name and synonyms, case- and space-insensitively, the rest ignored', () => {
    expect(
      suggestCsvMapping([
        'Name',
        'Details',
        'Column',
        'prio',
        'Owner',
        'Labels',
        'Due date',
        'ID',
        'Estimate',
        'Title',
      ]),
    ).toEqual({
      Name: 'title',
      Details: 'description',
      Column: 'status',
      prio: 'priority',
      Owner: 'assignee_email',
      Labels: 'labels',
      'Due date': 'due_date',
      ID: 'id',
      Estimate: 'ignored',
      // The title is already Name's.
      Title: 'ignored',
    });
    expect(suggestCsvMapping(['due_date', 'ASSIGNEE_EMAIL', ' list '])).toEqual({
      due_date: 'due_date',
      ASSIGNEE_EMAIL: 'assignee_email',
      list: 'status',
    });
  });
});

describe('readCsvHeader', () => {
  it('gives the header row, trimmed', () => {
    expect(readCsvHeader('\ufeff Title ;Status\nA;B').headers).toEqual(['Title', 'Status']);
  });
});

describe('readCsv', () => {
  const source = readCsv(CSV, 'roadmap.csv');
  const project = source.projects[0];
  const tasks = project?.tasks ?? [];

  it('reads one project named by the caller, a column per distinct status in first-seen order', () => {
    expect(project).toMatchObject({ sourceId: 'csv:roadmap.csv', name: 'roadmap.csv', key: null });
    expect(project?.columns).toEqual([
      { sourceId: 'In progress', name: 'In progress', suggestedStatus: 'in_progress' },
      { sourceId: 'Done', name: 'Done', suggestedStatus: 'done' },
      { sourceId: '', name: 'No status', suggestedStatus: 'todo' },
      { sourceId: 'in_review', name: 'in_review', suggestedStatus: 'in_review' },
    ]);
    expect(tasks.map((task) => task.columnId)).toEqual(['In progress', 'Done', '', 'in_review', 'Done']);
  });

  it('reads every field of a row', () => {
    expect(tasks[0]).toEqual({
      sourceId: 'csv:row:1',
      columnId: 'In progress',
      title: 'Write the spec',
      description: 'Covers imports, exports',
      priority: 'high',
      assigneeEmail: 'ada@example.com',
      dueDate: '2026-12-31',
      labelNames: ['spec', 'docs'],
      comments: [],
      archived: false,
    });
    expect(tasks[1]).toMatchObject({
      priority: 'urgent',
      assigneeEmail: 'grace@example.com',
      dueDate: '2026-12-31',
      labelNames: ['release', 'docs'],
    });
    expect(tasks[3]).toMatchObject({ priority: 'medium', assigneeEmail: null, dueDate: '2026-04-03' });
  });

  it('gives labels a colour from the palette by name, each name once', () => {
    expect(source.labels).toEqual([
      { name: 'spec', color: paletteColorFor('spec') },
      { name: 'docs', color: paletteColorFor('docs') },
      { name: 'release', color: paletteColorFor('release') },
    ]);
  });

  it('lists each problem with its line and column', () => {
    expect(source.problems).toEqual([
      { severity: 'warning', location: 'line 1', message: 'this column is not imported: "Estimate"' },
      {
        severity: 'warning',
        location: 'line 5, column "Assignee"',
        message: '"not-an-email" is not an e-mail address: left unassigned',
      },
      {
        severity: 'warning',
        location: 'line 5, column "Deadline"',
        message: '"03/04/2026" could be 2026-04-03 or 2026-03-04: read day first, 2026-04-03',
      },
      {
        severity: 'error',
        location: 'line 6, column "Summary"',
        message: 'has no title: the row is skipped',
      },
      {
        severity: 'warning',
        location: 'line 7, column "Priority"',
        message: '"whenever" is not a priority: none is set',
      },
      {
        severity: 'warning',
        location: 'line 7, column "Deadline"',
        message: '"next week" is not a date this import reads: no due date',
      },
    ]);
  });

  it('takes a mapping given by the caller, and ids from an id column', () => {
    const text = 'Key,What,Where\nA-1,First,Later\nA-2,Second,Later\nA-1,Third,Later\n';
    const read = readCsv(text, 'x', { Key: 'id', What: 'title', Where: 'status' });
    expect(read.projects[0]?.tasks.map((task) => task.sourceId)).toEqual([
      'csv:id:A-1',
      'csv:id:A-2',
      'csv:row:3',
    ]);
    expect(read.projects[0]?.columns).toEqual([
      { sourceId: 'Later', name: 'Later', suggestedStatus: 'backlog' },
    ]);
    expect(read.problems).toEqual([
      {
        severity: 'warning',
        location: 'line 4, column "Key"',
        message: 'id "A-1" is on an earlier row too: this row is told apart by its row number',
      },
    ]);
  });

  it('reads ; and tab separated files, and warns of rows with too many or too few cells', () => {
    const read = readCsv('Title;Status\nA;Done;extra\nB\n', 'x');
    expect(read.projects[0]?.tasks.map((task) => [task.title, task.columnId])).toEqual([
      ['A', 'Done'],
      ['B', ''],
    ]);
    expect(read.problems).toEqual([
      {
        severity: 'warning',
        location: 'line 2',
        message: 'has 3 cells where the header has 2: the extra ones are ignored',
      },
      {
        severity: 'warning',
        location: 'line 3',
        message: 'has 1 cells where the header has 2: the missing ones are taken as empty',
      },
    ]);
    const tabbed = readCsv('Name\tDue\n"A, with comma"\t1.2.2026\n', 'x');
    expect(tabbed.projects[0]?.tasks[0]).toMatchObject({ title: 'A, with comma', dueDate: '2026-02-01' });
  });

  it('cuts a long title and keeps at most 10 labels, with warnings', () => {
    const labels = Array.from({ length: 12 }, (_, n) => `l${n}`).join(',');
    const read = readCsv(`Title,Labels\n${'t'.repeat(210)},"${labels}"\n`, 'x');
    expect(read.projects[0]?.tasks[0]?.title).toHaveLength(200);
    expect(read.projects[0]?.tasks[0]?.labelNames).toHaveLength(10);
    expect(read.problems.map((problem) => problem.message)).toEqual([
      'title is 210 characters long: cut to 200',
      'has 12 labels, more than 10: "l10", "l11" dropped',
    ]);
  });

  it.each([
    ['', 'not a CSV file: the file is empty'],
    ['Title,Status\u0000\u0001\u0002', 'not a CSV file: the file holds NUL bytes: it is binary, not text'],
    ['{"object":"export"}', 'not a CSV file: the file is JSON: import a Trello or Tasklane export as such'],
    ['Title,Status\n', 'has a header row but no rows'],
  ])('refuses %j', (text, message) => {
    const read = readCsv(text, 'x');
    expect(read.projects).toEqual([]);
    expect(read.problems).toContainEqual({ severity: 'error', location: 'the file', message });
  });

  it('says which column to map when none is the title', () => {
    const read = readCsv('Foo,Bar\n1,2\n', 'x');
    expect(read.projects).toEqual([]);
    expect(read.problems).toContainEqual({
      severity: 'error',
      location: 'line 1',
      message: 'no column is the title: map one of "Foo", "Bar" to the title',
    });
  });

  it('reads 10,000 rows fast', () => {
    const rows = Array.from(
      { length: 10_000 },
      (_, n) =>
        `${n},"Task ${n}, with a comma","Line one\nline two",${['Todo', 'Doing', 'Done'][n % 3]},P${n % 5},a${n % 7}@example.com,"x,y${n % 9}",2026-12-${String((n % 28) + 1).padStart(2, '0')}`,
    );
    const text = ['ID,Title,Description,Status,Priority,Owner,Tags,Due', ...rows].join('\n');
    const started = performance.now();
    const read = readCsv(text, 'big');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(read.problems).toEqual([]);
    expect(read.projects[0]?.tasks).toHaveLength(10_000);
    expect(read.projects[0]?.tasks[9_999]).toMatchObject({
      sourceId: 'csv:id:9999',
      title: 'Task 9999, with a comma',
      description: 'Line one\nline two',
      priority: 'none',
    });
    expect(read.projects[0]?.columns.map((column) => column.suggestedStatus)).toEqual([
      'todo',
      'in_progress',
      'done',
    ]);
  });
});
