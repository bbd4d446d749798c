import { describe, expect, test } from 'vitest';
import type { LiveChange } from '../../../lib/realtime/live-event.ts';
import type { Task } from '../api/list-tasks.ts';
import { taskCacheAction } from './task-cache-action.ts';

const task = { id: 't1', version: 3, status: 'todo', position: 'a1' } as Task;
const event = (
  type: string,
  fields: Record<string, unknown> = {},
  version: number | null = 4,
): LiveChange => ({
  kind: 'change',
  seq: 9,
  type,
  project_id: 'p1',
  task_id: type.startsWith('task.') || type.startsWith('comment.') ? 't1' : null,
  resource_id: 'r1',
  version,
  actor_id: 'u1',
  fields,
});

describe('taskCacheAction', () => {
  test('a move to the next version is written in place', () => {
    expect(taskCacheAction(event('task.moved', { status: 'done', position: 'b2' }), task)).toEqual({
      kind: 'patch',
      taskId: 't1',
      changes: { status: 'done', position: 'b2', version: 4 },
    });
  });

  test('an echo (a version the cache has, or older) is ignored', () => {
    expect(taskCacheAction(event('task.moved', { status: 'done' }, 3), task)).toEqual({ kind: 'ignore' });
    expect(taskCacheAction(event('task.updated', { title: 'x' }, 2), task)).toEqual({ kind: 'ignore' });
    expect(taskCacheAction(event('task.created', { title: 'x' }, 1), task)).toEqual({ kind: 'ignore' });
  });

  test('an edit of the title and description, as the feed gives them, is written in place', () => {
    const edit = event('task.updated', { title: 'New', description: 'Long text' });
    expect(taskCacheAction(edit, task)).toEqual({
      kind: 'patch',
      taskId: 't1',
      changes: { title: 'New', description: 'Long text', version: 4 },
    });
  });

  test('a task not cached, a version skipped, a new task or an unknown field: read again', () => {
    expect(taskCacheAction(event('task.moved', { status: 'done' }), undefined)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
    expect(taskCacheAction(event('task.moved', { status: 'done' }, 6), task)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
    expect(taskCacheAction(event('task.created', { title: 'x' }), undefined)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
    expect(taskCacheAction(event('task.updated', {}), task)).toEqual({ kind: 'refetch', taskId: 't1' });
    expect(taskCacheAction(event('task.updated', { secret: 1 }), task)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
    expect(taskCacheAction(event('task.updated', { title: 'x' }, null), task)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
  });

  test('a deleted task is removed, whatever its version', () => {
    expect(taskCacheAction(event('task.deleted', {}, 3), task)).toEqual({ kind: 'remove', taskId: 't1' });
  });

  test('a restored task is read again, into the lists that dropped it, even from the version before', () => {
    expect(taskCacheAction(event('task.restored', { title: 'x' }), undefined)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
    expect(taskCacheAction(event('task.restored', { title: 'x' }, task.version + 1), task)).toEqual({
      kind: 'refetch',
      taskId: 't1',
    });
  });

  test('comments, bulk messages and changes that reach every task', () => {
    expect(taskCacheAction(event('comment.created'), undefined)).toEqual({ kind: 'comments', taskId: 't1' });
    expect(taskCacheAction(event('label.deleted'), undefined)).toEqual({ kind: 'refetch-all' });
    expect(taskCacheAction(event('project.updated'), undefined)).toEqual({ kind: 'refetch-all' });
    const bulk = {
      kind: 'bulk',
      seq_from: 1,
      seq_to: 30,
      cursor: 'c30',
      types: [],
      project_ids: [],
    } as const;
    expect(taskCacheAction(bulk, task)).toEqual({ kind: 'refetch-all' });
  });

  test('events about members or new labels leave tasks alone', () => {
    expect(taskCacheAction(event('member.added'), undefined)).toEqual({ kind: 'ignore' });
    expect(taskCacheAction(event('label.created'), undefined)).toEqual({ kind: 'ignore' });
  });
});
