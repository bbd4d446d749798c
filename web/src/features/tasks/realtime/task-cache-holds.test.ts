import { QueryClient } from '@tanstack/react-query';
import { describe, expect, test } from 'vitest';
import type { ChangeMessage } from '../../../lib/realtime/live-message.ts';
import type { Task, TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';
import { taskCacheHolds } from './task-cache-holds.ts';

const todoKey = taskKeys.list({ slug: 's', key: 'WEB', status: 'todo', sort: 'position', limit: 50 });
const message = (type: string, resource: string, version: number | null): ChangeMessage => ({
  kind: 'change',
  seq: 9,
  cursor: 'c9',
  previous_cursor: 'c8',
  type,
  project_id: 'p',
  task_id: 't1',
  resource_id: resource,
  version,
  actor_id: 'u',
  changed: [],
});

function cache() {
  const client = new QueryClient();
  const task = { object: 'task', id: 't1', key: 'WEB-1', status: 'todo', version: 4 } as Task;
  client.setQueryData<TaskPages>(todoKey, {
    pages: [{ data: [task], next_cursor: null }],
    pageParams: [null],
  });
  client.setQueryData(taskKeys.comments('t1'), [{ id: 'c1', version: 2 }]);
  return client;
}

describe('taskCacheHolds', () => {
  test('a task or comment cached at the version of the message, or newer, is held', () => {
    const client = cache();
    expect(taskCacheHolds(client, message('task.moved', 't1', 4))).toBe(true);
    expect(taskCacheHolds(client, message('task.updated', 't1', 3))).toBe(true);
    expect(taskCacheHolds(client, message('comment.updated', 'c1', 2))).toBe(true);
  });

  test('a newer version, something not cached, a deletion or another resource is not', () => {
    const client = cache();
    expect(taskCacheHolds(client, message('task.moved', 't1', 5))).toBe(false);
    expect(taskCacheHolds(client, message('task.moved', 't2', 1))).toBe(false);
    expect(taskCacheHolds(client, message('task.updated', 't1', null))).toBe(false);
    expect(taskCacheHolds(client, message('task.deleted', 't1', 4))).toBe(false);
    expect(taskCacheHolds(client, message('comment.created', 'c2', 1))).toBe(false);
    expect(taskCacheHolds(client, message('label.updated', 't1', 1))).toBe(false);
  });
});
