import { describe, expect, test } from 'vitest';
import { parseLiveEvent } from './live-event.ts';

describe('parseLiveEvent', () => {
  test('reads a change as the database broadcasts it', () => {
    const payload = {
      seq: 7,
      cursor: 'abc',
      type: 'task.moved',
      project_id: 'p1',
      task_id: 't1',
      resource_id: 't1',
      version: 4,
      actor_id: 'u1',
      fields: { status: 'done', position: 'a3' },
      id: 'ignored-message-id',
    };
    expect(parseLiveEvent(payload)).toEqual({
      kind: 'change',
      seq: 7,
      cursor: 'abc',
      type: 'task.moved',
      project_id: 'p1',
      task_id: 't1',
      resource_id: 't1',
      version: 4,
      actor_id: 'u1',
      fields: { status: 'done', position: 'a3' },
      omitted: [],
    });
  });

  test('fills what a message leaves out with null or empty', () => {
    expect(parseLiveEvent({ seq: 1, type: 'label.created', omitted: ['description'] })).toMatchObject({
      kind: 'change',
      cursor: null,
      task_id: null,
      version: null,
      fields: {},
      omitted: ['description'],
    });
  });

  test('reads a bulk message', () => {
    expect(
      parseLiveEvent({
        type: 'bulk',
        seq_from: 3,
        seq_to: 40,
        cursor: 'c',
        types: ['task.updated'],
        project_ids: [],
      }),
    ).toEqual({
      kind: 'bulk',
      seq_from: 3,
      seq_to: 40,
      cursor: 'c',
      types: ['task.updated'],
      project_ids: [],
    });
  });

  test('is null for anything else', () => {
    expect(parseLiveEvent(null)).toBeNull();
    expect(parseLiveEvent({ type: 'task.moved' })).toBeNull();
    expect(parseLiveEvent({ seq: 0, type: 'task.moved' })).toBeNull();
    expect(parseLiveEvent({ seq: 2, type: 'task.moved', fields: 'status' })).toBeNull();
  });
});
