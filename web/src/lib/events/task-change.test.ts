import type { components } from '@api-spec/schema.d.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeTaskChange, taskByKey, THIS_TASK, type TaskChangeWording } from './task-change.ts';

const task: components['schemas']['Task'] = {
  object: 'task',
  id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  project_id: '6b1f0c2d-3e4a-4b5c-8d6e-7f8091a2b3c4',
  key: 'WEB-7',
  number: 7,
  title: 'Ship it',
  description: '',
  status: 'in_review',
  priority: 'high',
  assignee_id: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10',
  due_date: '2026-12-04',
  position: 'a0',
  label_ids: [],
  created_by: null,
  completed_at: null,
  version: 3,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

const wording: TaskChangeWording = {
  statusLabels: {
    backlog: 'Backlog',
    todo: 'Todo',
    in_progress: 'In progress',
    in_review: 'In review',
    done: 'Done',
    canceled: 'Canceled',
  },
  priorityLabels: { none: 'No priority', low: 'Low', medium: 'Medium', high: 'High', urgent: 'Urgent' },
  nameOf: () => 'Maya',
};

// Each field in the feed's words (the task by its key) and in the task's own activity ("it").
const words: [string, Partial<components['schemas']['Task']>, string, string][] = [
  ['status', {}, 'moved WEB-7 to In review', 'moved it to In review'],
  ['title', {}, 'renamed WEB-7 to “Ship it”', 'renamed it to “Ship it”'],
  ['description', {}, 'edited the description of WEB-7', 'edited the description'],
  ['priority', {}, 'set the priority of WEB-7 to High', 'set the priority to High'],
  ['assignee_id', {}, 'assigned WEB-7 to Maya', 'assigned it to Maya'],
  ['assignee_id', { assignee_id: null }, 'unassigned WEB-7', 'unassigned it'],
  ['due_date', {}, 'set the due date of WEB-7 to Dec 4', 'set the due date to Dec 4'],
  ['due_date', { due_date: null }, 'removed the due date of WEB-7', 'removed the due date'],
  ['label_ids', {}, 'changed the labels of WEB-7', 'changed the labels'],
];

describe('describeTaskChange', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date(2026, 10, 25, 18, 30), toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(words)('words a change of %s about the task by key or as "it"', (field, data, byKey, asIt) => {
    expect(describeTaskChange(field, { ...task, ...data }, taskByKey('WEB-7'), wording)).toBe(byKey);
    expect(describeTaskChange(field, { ...task, ...data }, THIS_TASK, wording)).toBe(asIt);
  });

  it('does not word the position, the completion time or fields it does not know', () => {
    for (const field of ['position', 'completed_at', 'estimate']) {
      expect(describeTaskChange(field, task, THIS_TASK, wording)).toBeNull();
    }
  });
});
