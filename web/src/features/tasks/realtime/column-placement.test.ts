import { describe, expect, test } from 'vitest';
import type { Task, TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';
import { projectKeyOf } from '../task-key.ts';
import { columnOf, placeInColumn } from './column-placement.ts';

const card = (id: string, position: string, status = 'todo', key = `WEB-${id}`) =>
  ({ id, key, position, status }) as Task;
const pagesOf = (...pages: [Task[], string | null][]): TaskPages => ({
  pages: pages.map(([data, next]) => ({ data, next_cursor: next })),
  pageParams: pages.map((_, i) => i),
});
const ids = (pages: TaskPages) => pages.pages.map((page) => page.data.map((t) => t.id));
const todo = { slug: 's', key: 'WEB', status: 'todo' };

describe('columnOf', () => {
  test('a board column is a project list of one status by position', () => {
    const key = taskKeys.list({ slug: 's', key: 'WEB', status: 'todo', sort: 'position', limit: 50 });
    expect(columnOf(key)).toEqual(todo);
  });

  test('filtered, searched, re-sorted or workspace lists are not', () => {
    const base = { slug: 's', key: 'WEB', status: 'todo', sort: 'position', limit: 50 } as const;
    expect(columnOf(taskKeys.list({ ...base, priority: 'high' }))).toBeNull();
    expect(columnOf(taskKeys.list({ ...base, q: 'x' }))).toBeNull();
    expect(columnOf(taskKeys.list({ ...base, sort: 'due_date' }))).toBeNull();
    expect(columnOf(taskKeys.list({ ...base, status: 'todo,done' }))).toBeNull();
    expect(columnOf(taskKeys.workspaceList('s', { assignee: 'me' }))).toBeNull();
    // Filters left undefined do not count.
    expect(columnOf(taskKeys.list({ ...base, q: undefined }))).toEqual(todo);
  });
});

describe('placeInColumn', () => {
  test('a card is put among the others by position', () => {
    const pages = pagesOf([[card('1', 'a'), card('2', 'c')], null]);
    expect(ids(placeInColumn(pages, todo, card('9', 'b')))).toEqual([['1', '9', '2']]);
  });

  test('a card moved within its column changes place', () => {
    const pages = pagesOf([[card('1', 'a'), card('2', 'c'), card('3', 'e')], null]);
    expect(ids(placeInColumn(pages, todo, card('1', 'd')))).toEqual([['2', '1', '3']]);
  });

  test('a card that left the column is taken out', () => {
    const pages = pagesOf([[card('1', 'a'), card('2', 'c')], null]);
    expect(ids(placeInColumn(pages, todo, card('1', 'a', 'done')))).toEqual([['2']]);
  });

  test('the end of a column is only written when its last page is read', () => {
    const all = pagesOf([[card('1', 'a')], 'next'], [[card('2', 'c')], null]);
    expect(ids(placeInColumn(all, todo, card('9', 'z')))).toEqual([['1'], ['2', '9']]);
    const partial = pagesOf([[card('1', 'a')], 'next']);
    expect(ids(placeInColumn(partial, todo, card('9', 'z')))).toEqual([['1']]);
  });

  test("a card of another project's board stays out", () => {
    const pages = pagesOf([[card('1', 'a')], null]);
    expect(ids(placeInColumn(pages, todo, card('9', 'b', 'todo', 'OPS-9')))).toEqual([['1']]);
  });

  test('the project key of a task key', () => {
    expect(projectKeyOf('WEB2-14')).toBe('WEB2');
  });
});
