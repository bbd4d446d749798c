import { QueryClient } from '@tanstack/react-query';
import { describe, expect, test } from 'vitest';
import type { LiveChange } from '../../../lib/realtime/live-event.ts';
import { columnListFilters, tasksOf, type Task, type TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';
import { applyTaskEvent } from './apply-task-event.ts';

const board = { slug: 's', key: 'WEB' };
const todoKey = taskKeys.list(columnListFilters(board, 'todo'));
const doneKey = taskKeys.list(columnListFilters(board, 'done'));
const countsKey = taskKeys.count(board);

const task = (n: number, status: string, position: string, version = 1) =>
  ({ object: 'task', id: `t${n}`, key: `WEB-${n}`, title: `Task ${n}`, status, position, version }) as Task;
const pages = (...tasks: Task[]): TaskPages => ({
  pages: [{ data: tasks, next_cursor: null }],
  pageParams: [null],
});

function cache() {
  const client = new QueryClient();
  client.setQueryData(todoKey, pages(task(1, 'todo', 'a'), task(2, 'todo', 'b', 3)));
  client.setQueryData(doneKey, pages(task(3, 'done', 'm')));
  client.setQueryData(countsKey, { total: 3 });
  client.setQueryData(taskKeys.byKey('s', 'WEB-2'), task(2, 'todo', 'b', 3));
  return client;
}
const keysIn = (client: QueryClient, key: readonly unknown[]) =>
  tasksOf(client.getQueryData<TaskPages>(key)).map((t) => t.key);
const event = (
  type: string,
  taskId: string,
  version: number,
  fields: Record<string, unknown> = {},
): LiveChange => ({
  kind: 'change',
  seq: 1,
  type,
  project_id: 'p',
  task_id: taskId,
  resource_id: taskId,
  version,
  actor_id: 'u',
  fields,
});

describe('applyTaskEvent', () => {
  test("another person's move carries the card to its column and place, and marks the counts stale", () => {
    const client = cache();
    applyTaskEvent(client, event('task.moved', 't2', 4, { status: 'done', position: 'z' }));
    expect(keysIn(client, todoKey)).toEqual(['WEB-1']);
    expect(keysIn(client, doneKey)).toEqual(['WEB-3', 'WEB-2']);
    expect(client.getQueryData<Task>(taskKeys.byKey('s', 'WEB-2'))).toMatchObject({
      status: 'done',
      version: 4,
    });
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
  });

  test('the echo of a change the cache has is ignored', () => {
    const client = cache();
    applyTaskEvent(client, event('task.moved', 't2', 3, { status: 'done', position: 'z' }));
    expect(keysIn(client, todoKey)).toEqual(['WEB-1', 'WEB-2']);
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(false);
  });

  test('a deleted task leaves every list', () => {
    const client = cache();
    applyTaskEvent(client, event('task.deleted', 't1', 1));
    expect(keysIn(client, todoKey)).toEqual(['WEB-2']);
  });

  test('a new task marks the lists and counts stale', () => {
    const client = cache();
    applyTaskEvent(client, event('task.created', 't9', 1, { title: 'New' }));
    expect(client.getQueryState(todoKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
  });
});
