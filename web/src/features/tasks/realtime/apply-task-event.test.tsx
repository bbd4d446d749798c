import { QueryClient } from '@tanstack/react-query';
import { describe, expect, test } from 'vitest';
import type { LiveChange } from '../../../lib/realtime/live-event.ts';
import type { TaskCounts } from '../api/count-tasks.ts';
import { columnListFilters, tasksOf, type Task, type TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';
import { applyTaskEvent } from './apply-task-event.ts';

const board = { slug: 's', key: 'WEB' };
const todoKey = taskKeys.list(columnListFilters(board, 'todo'));
const doneKey = taskKeys.list(columnListFilters(board, 'done'));
const countsKey = taskKeys.count(board);
const filteredCountsKey = taskKeys.count({ ...board, priority: 'high' });
const otherWorkspace = { slug: 'elsewhere', key: 'WEB' };

const statusCounts = (todo: number, done: number) => ({
  backlog: 0,
  todo,
  in_progress: 0,
  in_review: 0,
  done,
  canceled: 0,
});
const counts = (todo: number, done: number): TaskCounts => ({
  object: 'task_counts',
  total: todo + done,
  by_status: statusCounts(todo, done),
  by_project: [{ project_key: 'WEB', total: todo + done, by_status: statusCounts(todo, done) }],
});

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
  client.setQueryData(countsKey, counts(2, 1));
  client.setQueryData(filteredCountsKey, counts(1, 0));
  client.setQueryData(taskKeys.list(columnListFilters(otherWorkspace, 'done')), pages());
  client.setQueryData(taskKeys.count(otherWorkspace), counts(0, 0));
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
  test("another person's move carries the card to its column and place, and its count, without a read", () => {
    const client = cache();
    applyTaskEvent(client, event('task.moved', 't2', 4, { status: 'done', position: 'z' }), 's');
    expect(keysIn(client, todoKey)).toEqual(['WEB-1']);
    expect(keysIn(client, doneKey)).toEqual(['WEB-3', 'WEB-2']);
    expect(client.getQueryData<Task>(taskKeys.byKey('s', 'WEB-2'))).toMatchObject({
      status: 'done',
      version: 4,
    });
    expect(client.getQueryData(countsKey)).toEqual(counts(1, 2));
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(false);
    // Whether the task passes a filter is the API's to say.
    expect(client.getQueryState(filteredCountsKey)?.isInvalidated).toBe(true);
  });

  test("another workspace's project of the same key is left alone", () => {
    const client = cache();
    applyTaskEvent(client, event('task.moved', 't2', 4, { status: 'done', position: 'z' }), 's');
    expect(keysIn(client, taskKeys.list(columnListFilters(otherWorkspace, 'done')))).toEqual([]);
    expect(client.getQueryData(taskKeys.count(otherWorkspace))).toEqual(counts(0, 0));
    expect(client.getQueryState(taskKeys.count(otherWorkspace))?.isInvalidated).toBe(false);
  });

  test('counts being read when a move comes are read again, not carried', async () => {
    const client = cache();
    let answer!: (value: TaskCounts) => void;
    const reading = client.fetchQuery({
      queryKey: countsKey,
      queryFn: () => new Promise<TaskCounts>((resolve) => (answer = resolve)),
    });
    applyTaskEvent(client, event('task.moved', 't2', 4, { status: 'done', position: 'z' }), 's');
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
    expect(client.getQueryData(countsKey)).toEqual(counts(2, 1));
    answer(counts(2, 1));
    await reading.catch(() => undefined);
  });

  test('an edit that is not a move leaves the column counts as they are', () => {
    const client = cache();
    applyTaskEvent(client, event('task.updated', 't2', 4, { title: 'Renamed' }), 's');
    expect(client.getQueryData(countsKey)).toEqual(counts(2, 1));
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(false);
  });

  test('the echo of a change the cache has is ignored', () => {
    const client = cache();
    applyTaskEvent(client, event('task.moved', 't2', 3, { status: 'done', position: 'z' }), 's');
    expect(keysIn(client, todoKey)).toEqual(['WEB-1', 'WEB-2']);
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(false);
  });

  test('a deleted task leaves every list', () => {
    const client = cache();
    applyTaskEvent(client, event('task.deleted', 't1', 1), 's');
    expect(keysIn(client, todoKey)).toEqual(['WEB-2']);
  });

  test('a new task marks the lists and counts stale', () => {
    const client = cache();
    applyTaskEvent(client, event('task.created', 't9', 1, { title: 'New' }), 's');
    expect(client.getQueryState(todoKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
  });
});
