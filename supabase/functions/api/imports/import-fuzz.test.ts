import { describe, expect, it } from 'vitest';
import type { ImportSource } from './import-source.ts';
import { trelloBoardFixtureText } from './trello-fixture.ts';
import { readTrelloExport } from './trello-source.ts';
import { readCsv } from './csv-source.ts';
import { readTasklaneExport } from './tasklane-source.ts';

/** A small deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = '{}[]",:;\t\n\r0123456789abcxyz -_.\\/\u0000\ufeffé😀"\'|';

function garbage(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += ALPHABET[Math.floor(next() * ALPHABET.length)] ?? '';
  return text;
}

/** Variants of a valid file: cut anywhere, a character changed, a slice dropped or repeated. */
function mutations(valid: string, next: () => number, count: number): string[] {
  const at = (): number => Math.floor(next() * valid.length);
  return Array.from({ length: count }, (_, n) => {
    const i = at();
    const j = at();
    switch (n % 4) {
      case 0:
        return valid.slice(0, i);
      case 1:
        return valid.slice(0, i) + garbage(next, 1) + valid.slice(i + 1);
      case 2:
        return valid.slice(0, Math.min(i, j)) + valid.slice(Math.max(i, j));
      default:
        return valid.slice(0, i) + valid.slice(Math.min(i, j), Math.max(i, j)) + valid.slice(i);
    }
  });
}

function expectWellFormed(read: () => ImportSource): void {
  let source: ImportSource | undefined;
  expect(() => (source = read())).not.toThrow();
  if (!source) throw new Error('no source');
  const nothingRead = source.projects.length === 0;
  if (nothingRead) expect(source.problems.some((problem) => problem.severity === 'error')).toBe(true);
  for (const project of source.projects) {
    for (const task of project.tasks) {
      expect(task.title.trim().length).toBeGreaterThan(0);
      expect(task.title.length).toBeLessThanOrEqual(200);
      expect(task.labelNames.length).toBeLessThanOrEqual(10);
    }
  }
}

const TASKLANE_EXPORT = JSON.stringify({
  object: 'export',
  format_version: 1,
  exported_at: '2026-11-29T12:00:00.000Z',
  workspace: { object: 'workspace', slug: 'acme' },
  members: [{ object: 'member', user_id: 'u1', display_name: 'Ada' }],
  labels: [{ object: 'label', id: 'l1', name: 'Bug', color: '#d73a4a' }],
  projects: [{ object: 'project', id: 'p1', key: 'ENG', name: 'Engineering', description: '' }],
  tasks: [
    {
      object: 'task',
      id: 't1',
      project_id: 'p1',
      title: 'One',
      status: 'todo',
      priority: 'low',
      label_ids: ['l1'],
    },
    {
      object: 'task',
      id: 't2',
      project_id: 'p1',
      title: 'Two',
      status: 'done',
      due_date: '2026-01-02',
      label_ids: [],
    },
  ],
  comments: [{ object: 'comment', id: 'c1', task_id: 't1', author_id: 'u1', body: 'Hi', deleted: false }],
  attachments: [],
});

const readers: [string, (text: string) => ImportSource, string][] = [
  ['Trello', readTrelloExport, trelloBoardFixtureText({ cards: 20 })],
  [
    'CSV',
    (text) => readCsv(text, 'fuzz'),
    'ID,Title,Status,Priority,Tags,Due\r\n1,"A, b",Done,P1,"x;y",2026-01-02\r\n2,"say ""hi""\nthere",Doing,low,z,3/4/2026\r\n',
  ],
  ['Tasklane', readTasklaneExport, TASKLANE_EXPORT],
];

describe.each(readers)('the %s reader on bad input', (_name, read, valid) => {
  it('never throws on random text, and says so with an error when it read nothing', () => {
    const next = random(1);
    for (let n = 0; n < 300; n += 1) {
      const text = garbage(next, Math.floor(next() * 200));
      expectWellFormed(() => read(text));
    }
  });

  it('never throws on a valid file truncated or mangled', () => {
    const next = random(2);
    for (const text of mutations(valid, next, 300)) expectWellFormed(() => read(text));
  });

  it('never throws on JSON of any shape', () => {
    const shapes = [
      'null',
      '1',
      '"x"',
      '[]',
      '{}',
      '[{}]',
      '{"cards":null}',
      '{"lists":[null],"cards":[1],"id":1}',
    ];
    for (const text of shapes) expectWellFormed(() => read(text));
  });
});
