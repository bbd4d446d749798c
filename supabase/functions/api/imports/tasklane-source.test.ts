import { describe, expect, it } from 'vitest';
import { readTasklaneExport } from './tasklane-source.ts';

const WS = '2a4c6e80-1b3d-4f5a-9c7e-0d2f4a6b8c10';
const ADA = '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10';
const GRACE = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const ENG = '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4';
const OPS = '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c5';
const BUG = '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09';
const DOCS = '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a10';
const STAMP = '2026-11-22T09:00:00.000Z';

const member = (userId: string, name: string) => ({
  object: 'member',
  user_id: userId,
  workspace_id: WS,
  role: 'member',
  display_name: name,
  version: 1,
  created_at: STAMP,
  updated_at: STAMP,
});

const label = (id: string, name: string, color: string) => ({
  object: 'label',
  id,
  workspace_id: WS,
  name,
  color,
  created_by: ADA,
  version: 1,
  created_at: STAMP,
  updated_at: STAMP,
});

const project = (id: string, key: string, name: string, archived = false) => ({
  object: 'project',
  id,
  workspace_id: WS,
  key,
  name,
  description: `${name} work.`,
  archived,
  archived_at: archived ? STAMP : null,
  created_by: ADA,
  version: 1,
  created_at: STAMP,
  updated_at: STAMP,
});

let number = 0;
const task = (id: string, projectId: string, fields: Record<string, unknown>) => {
  number += 1;
  return {
    object: 'task',
    id,
    project_id: projectId,
    key: `ENG-${number}`,
    number,
    title: `Task ${id}`,
    description: '',
    status: 'todo',
    priority: 'none',
    assignee_id: null,
    due_date: null,
    position: number * 1000,
    label_ids: [],
    checklist: { done: 0, total: 0 },
    created_by: ADA,
    completed_at: null,
    version: 1,
    created_at: STAMP,
    updated_at: STAMP,
    ...fields,
  };
};

const comment = (
  id: string,
  taskId: string,
  authorId: string,
  body: string,
  createdAt: string,
  deleted = false,
) => ({
  object: 'comment',
  id,
  task_id: taskId,
  author_id: authorId,
  body: deleted ? '' : body,
  deleted,
  edited_at: null,
  deleted_at: deleted ? createdAt : null,
  version: 1,
  created_at: createdAt,
  updated_at: createdAt,
});

const EXPORT = {
  object: 'export',
  format_version: 1,
  exported_at: '2026-11-29T12:00:00.000Z',
  workspace: { object: 'workspace', id: WS, slug: 'acme', name: 'Acme' },
  members: [member(ADA, 'Ada Lovelace'), member(GRACE, 'Grace Hopper')],
  labels: [label(BUG, 'Bug', '#d73a4a'), label(DOCS, 'Docs', '#0075ca')],
  projects: [project(ENG, 'ENG', 'Engineering'), project(OPS, 'OPS', 'Operations', true)],
  tasks: [
    task('t1', ENG, {
      title: 'Fix login',
      description: 'It fails.\n\n- [x] reproduce\n- [ ] fix',
      status: 'in_progress',
      priority: 'high',
      assignee_id: GRACE,
      due_date: '2026-12-24',
      label_ids: [BUG, DOCS],
    }),
    task('t2', ENG, { status: 'in_progress' }),
    task('t3', ENG, { status: 'done', title: '' }),
    task('t4', ENG, { status: 'done' }),
    task('t5', OPS, { status: 'backlog', label_ids: ['4d3c2b1a-0000-4d8c-b7a6-5e4d3c2b1a99'] }),
  ],
  comments: [
    comment('c1', 't1', ADA, 'First!', '2026-11-23T09:00:00.000Z'),
    comment('c2', 't1', GRACE, 'gone', '2026-11-23T10:00:00.000Z', true),
    comment('c3', 't1', GRACE, 'On it.', '2026-11-23T11:00:00.000Z'),
  ],
  attachments: [],
};

describe('readTasklaneExport', () => {
  const source = readTasklaneExport(JSON.stringify(EXPORT));

  it('reads one project per exported project, with its key, and the statuses its tasks are in as columns', () => {
    expect(source.projects.map(({ tasks: _tasks, ...rest }) => rest)).toEqual([
      {
        sourceId: `tasklane:${ENG}`,
        name: 'Engineering',
        key: 'ENG',
        description: 'Engineering work.',
        columns: [
          { sourceId: 'in_progress', name: 'In progress', suggestedStatus: 'in_progress' },
          { sourceId: 'done', name: 'Done', suggestedStatus: 'done' },
        ],
      },
      {
        sourceId: `tasklane:${OPS}`,
        name: 'Operations',
        key: 'OPS',
        description: 'Operations work.',
        columns: [{ sourceId: 'backlog', name: 'Backlog', suggestedStatus: 'backlog' }],
      },
    ]);
  });

  it('reads tasks in the export order with labels by name, assignee and authors by user id, deleted comments left out', () => {
    const tasks = source.projects[0]?.tasks ?? [];
    expect(tasks.map((task) => task.sourceId)).toEqual(['tasklane:t1', 'tasklane:t2', 'tasklane:t4']);
    expect(tasks[0]).toEqual({
      sourceId: 'tasklane:t1',
      columnId: 'in_progress',
      title: 'Fix login',
      description: 'It fails.\n\n- [x] reproduce\n- [ ] fix',
      priority: 'high',
      assigneeEmail: null,
      assigneeUserId: GRACE,
      dueDate: '2026-12-24',
      labelNames: ['Bug', 'Docs'],
      comments: [
        {
          body: 'First!',
          authorName: 'Ada Lovelace',
          authorEmail: null,
          authorUserId: ADA,
          createdAt: '2026-11-23T09:00:00.000Z',
        },
        {
          body: 'On it.',
          authorName: 'Grace Hopper',
          authorEmail: null,
          authorUserId: GRACE,
          createdAt: '2026-11-23T11:00:00.000Z',
        },
      ],
      archived: false,
    });
    expect(source.labels).toEqual([
      { name: 'Bug', color: '#d73a4a' },
      { name: 'Docs', color: '#0075ca' },
    ]);
  });

  it('skips a task with no title with an error and drops a label the export lacks with a warning', () => {
    expect(source.problems).toEqual([
      { severity: 'error', location: 'tasks[2].title', message: 'has no title: the row is skipped' },
      {
        severity: 'warning',
        location: 'tasks[4].label_ids',
        message: 'label "4d3c2b1a-0000-4d8c-b7a6-5e4d3c2b1a99" is not in the export: dropped',
      },
    ]);
  });

  it.each([
    ['{"cards":[],"lists":[],"id":"b"}', 'not a Tasklane export: its "object" is not "export"'],
    [
      '{"object":"export","format_version":2}',
      'not a Tasklane export: its format_version is 2; this import reads 1',
    ],
    ['{"object":"export"}', 'not a Tasklane export: its format_version is missing; this import reads 1'],
    [
      '{"object":"export","format_version":1,"members":[]}',
      'not a Tasklane export: its "labels" is not a list',
    ],
  ])('refuses %s', (text, message) => {
    expect(readTasklaneExport(text)).toEqual({
      projects: [],
      labels: [],
      problems: [{ severity: 'error', location: 'the file', message }],
    });
  });

  it('says when the export has no projects', () => {
    const empty = { ...EXPORT, projects: [], tasks: [], comments: [] };
    expect(readTasklaneExport(JSON.stringify(empty)).problems).toEqual([
      { severity: 'error', location: 'projects', message: 'the export has no projects to import' },
    ]);
  });

  it('says where a cut-short export ends', () => {
    const text = JSON.stringify(EXPORT, null, 2).slice(0, 500);
    const read = readTasklaneExport(text);
    expect(read.projects).toEqual([]);
    expect(read.problems[0]).toMatchObject({ severity: 'error' });
    expect(read.problems[0]?.message).toMatch(/not whole|not valid JSON/);
    expect(read.problems[0]?.location).toMatch(/^position \d+ \(line \d+, column \d+\)$/);
  });
});
