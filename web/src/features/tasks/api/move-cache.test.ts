import { describe, expect, it } from 'vitest';
import type { TaskCounts } from './count-tasks.ts';
import type { Task, TaskPages } from './list-tasks.ts';
import { applyMove, applyMoveToCounts, type TaskMove } from './move-cache.ts';

function task(id: string, status: Task['status']): Task {
  return { id, status, key: `WEB-${id}` } as Task;
}

function pages(...ids: (string[] | { ids: string[]; next: string | null })[]): TaskPages {
  return {
    pageParams: ids.map(() => undefined),
    pages: ids.map((page, index) => {
      const { ids: list, next } = Array.isArray(page)
        ? { ids: page, next: index === ids.length - 1 ? null : 'more' }
        : page;
      return { data: list.map((id) => task(id, 'todo')), next_cursor: next };
    }),
  };
}

const idsOf = (data: TaskPages) => data.pages.map((page) => page.data.map((t) => t.id));

function move(moved: Task, body: TaskMove['body']): TaskMove {
  return { task: moved, body, fromList: ['from'], toList: ['to'], counts: ['counts'] };
}

describe('a move in the cache', () => {
  it('leaves the column it was in', () => {
    const after = applyMove(pages(['a', 'b'], ['c']), move(task('b', 'todo'), { status: 'done' }), 'todo');
    expect(idsOf(after)).toEqual([['a'], ['c']]);
  });

  it('enters after its neighbour, on whichever page the neighbour is, with its new status', () => {
    const before = pages(['x'], ['y', 'z']);
    const after = applyMove(before, move(task('b', 'todo'), { status: 'todo', after_id: 'y' }), 'todo');
    expect(idsOf(after)).toEqual([['x'], ['y', 'b', 'z']]);
    const column = pages(['x', 'y']);
    const entered = applyMove(
      column,
      move(task('b', 'todo'), { status: 'in_progress', before_id: 'x' }),
      'in_progress',
    );
    expect(idsOf(entered)).toEqual([['b', 'x', 'y']]);
    expect(entered.pages[0]?.data[0]?.status).toBe('in_progress');
  });

  it('reorders within one column', () => {
    const after = applyMove(
      pages(['a', 'b', 'c']),
      move(task('a', 'todo'), { status: 'todo', after_id: 'c' }),
      'todo',
    );
    expect(idsOf(after)).toEqual([['b', 'c', 'a']]);
  });

  it('at the end of a column, shows only when its last page is read', () => {
    const whole = applyMove(pages(['x']), move(task('b', 'todo'), { status: 'done' }), 'done');
    expect(idsOf(whole)).toEqual([['x', 'b']]);
    const partial = applyMove(
      pages({ ids: ['x'], next: 'more' }),
      move(task('b', 'todo'), { status: 'done' }),
      'done',
    );
    expect(idsOf(partial)).toEqual([['x']]);
  });

  it('carries one from a column count to another', () => {
    const counts = {
      object: 'task_counts',
      total: 3,
      by_status: { backlog: 0, todo: 2, in_progress: 1, in_review: 0, done: 0, canceled: 0 },
      by_project: [
        {
          project_key: 'WEB',
          total: 3,
          by_status: { backlog: 0, todo: 2, in_progress: 1, in_review: 0, done: 0, canceled: 0 },
        },
        {
          project_key: 'API',
          total: 1,
          by_status: { backlog: 0, todo: 1, in_progress: 0, in_review: 0, done: 0, canceled: 0 },
        },
      ],
    } satisfies TaskCounts;
    const after = applyMoveToCounts(counts, move(task('a', 'todo'), { status: 'in_progress' }));
    expect(after.by_status).toMatchObject({ todo: 1, in_progress: 2 });
    expect(after.by_project[0]?.by_status).toMatchObject({ todo: 1, in_progress: 2 });
    expect(after.by_project[1]).toBe(counts.by_project[1]);
    expect(applyMoveToCounts(counts, move(task('a', 'todo'), { status: 'todo' }))).toBe(counts);
  });
});
