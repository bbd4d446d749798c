import type { components } from '@api-spec/schema.d.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventSentence } from './event-sentence.ts';

type Event = components['schemas']['Event'];
type Task = components['schemas']['Task'];

const task: Task = {
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
  due_date: null,
  position: 'a0',
  label_ids: [],
  checklist: { done: 0, total: 0 },
  created_by: null,
  completed_at: null,
  version: 3,
  created_at: '2026-11-22T09:10:00.000Z',
  updated_at: '2026-11-22T09:10:00.000Z',
};

function event(
  type: Event['type'],
  previous: Record<string, unknown> | null,
  data: Event['data'] = task,
): Event {
  return {
    object: 'event',
    id: '1',
    seq: 1,
    type,
    created_at: '2026-11-22T09:10:00.000Z',
    actor: { type: 'user', user_id: null, api_token_id: null },
    workspace_id: '2b7e4c1a-5d3f-4e8a-9b6c-1f0e2d3c4b5a',
    project_id: task.project_id,
    task_id: task.id,
    data,
    previous_attributes: previous,
  };
}

const nameOf = () => 'Maya';

describe('eventSentence', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says what a task event did, after the actor', () => {
    expect(eventSentence(event('task.created', null), nameOf)).toBe('created the task');
    expect(eventSentence(event('task.restored', null), nameOf)).toBe('restored the task');
    expect(eventSentence(event('task.moved', { status: 'todo', position: 'a0' }), nameOf)).toBe(
      'moved it to In review',
    );
  });

  it('names each changed field of an update', () => {
    const sentence = eventSentence(
      event('task.updated', { title: 'Old', priority: 'low', assignee_id: null, due_date: '2026-12-01' }),
      nameOf,
    );
    expect(sentence).toBe(
      'renamed it to “Ship it”, set the priority to High, assigned it to Maya and removed the due date',
    );
  });

  it('words every other field the way the workspace feed does, about "it"', () => {
    vi.useFakeTimers({ now: new Date(2026, 10, 25, 18, 30), toFake: ['Date'] });
    const updated = (previous: Record<string, unknown>, data: Partial<Task> = {}) =>
      eventSentence(event('task.updated', previous, { ...task, ...data }), nameOf);

    expect(updated({ status: 'todo' })).toBe('moved it to In review');
    expect(updated({ description: 'old' })).toBe('edited the description');
    expect(updated({ assignee_id: task.assignee_id }, { assignee_id: null })).toBe('unassigned it');
    expect(updated({ due_date: null }, { due_date: '2026-12-04' })).toBe('set the due date to Dec 4');
    expect(updated({ label_ids: [] })).toBe('changed the labels');
    expect(updated({ completed_at: null, estimate: 3 })).toBeNull();
  });

  it('leaves comments and unknown kinds to the rest of the activity', () => {
    const comment: Event['data'] = {
      object: 'comment',
      id: '9c8b7a69-5d4e-4f3a-8b2c-1d0e9f8a7b6c',
      task_id: task.id,
      author_id: null,
      body: 'hi',
      deleted: false,
      edited_at: null,
      deleted_at: null,
      version: 1,
      created_at: task.created_at,
      updated_at: task.updated_at,
    };
    expect(eventSentence(event('comment.created', null, comment), nameOf)).toBeNull();
    expect(eventSentence(event('task.updated', { position: 'a1' }), nameOf)).toBeNull();
  });
});
