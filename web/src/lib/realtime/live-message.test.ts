import { describe, expect, test } from 'vitest';
import { parseLiveMessage } from './live-message.ts';

describe('parseLiveMessage', () => {
  test('reads a change as the database broadcasts it: ids, version, cursors and the names of what changed', () => {
    const payload = {
      seq: 7,
      cursor: 'c7',
      previous_cursor: 'c6',
      type: 'task.moved',
      project_id: 'p1',
      task_id: 't1',
      resource_id: 't1',
      version: 4,
      actor_id: 'u1',
      changed: ['position', 'status'],
      id: 'ignored-message-id',
    };
    expect(parseLiveMessage(payload)).toEqual({
      kind: 'change',
      seq: 7,
      cursor: 'c7',
      previous_cursor: 'c6',
      type: 'task.moved',
      project_id: 'p1',
      task_id: 't1',
      resource_id: 't1',
      version: 4,
      actor_id: 'u1',
      changed: ['position', 'status'],
    });
  });

  test('fills the ids and names a message leaves out with null or empty', () => {
    expect(
      parseLiveMessage({ seq: 1, cursor: 'c1', previous_cursor: 'c0', type: 'label.created' }),
    ).toMatchObject({ kind: 'change', task_id: null, version: null, changed: [] });
  });

  test('reads a bulk message', () => {
    expect(
      parseLiveMessage({
        type: 'bulk',
        seq_from: 3,
        seq_to: 40,
        cursor: 'c40',
        previous_cursor: 'c2',
        types: ['task.updated'],
        project_ids: [],
      }),
    ).toEqual({
      kind: 'bulk',
      seq_from: 3,
      seq_to: 40,
      cursor: 'c40',
      previous_cursor: 'c2',
      types: ['task.updated'],
      project_ids: [],
    });
  });

  test('is null for anything else, a message without its cursors among them', () => {
    expect(parseLiveMessage(null)).toBeNull();
    expect(parseLiveMessage({ type: 'task.moved' })).toBeNull();
    expect(parseLiveMessage({ seq: 2, type: 'task.moved', cursor: 'c2' })).toBeNull();
    expect(parseLiveMessage({ seq: 0, type: 'task.moved', cursor: 'c0', previous_cursor: 'c' })).toBeNull();
    expect(
      parseLiveMessage({
        seq: 2,
        type: 'task.moved',
        cursor: 'c2',
        previous_cursor: 'c1',
        changed: 'status',
      }),
    ).toBeNull();
  });
});
