import { describe, expect, it } from 'vitest';
import type { Task } from '../../api/list-tasks.ts';
import { dragOver, dropOf, type Columns } from './drag-columns.ts';

function task(id: string, status: Task['status']): Task {
  return { id, status, key: `WEB-${id}` } as Task;
}

const a = task('a', 'todo');
const b = task('b', 'todo');
const c = task('c', 'todo');
const x = task('x', 'in_progress');
const y = task('y', 'in_progress');

function board(partial: Partial<Record<Task['status'], Task[]>>): Columns {
  return { backlog: [], todo: [], in_progress: [], in_review: [], done: [], canceled: [], ...partial };
}

describe('dragging a card over the board', () => {
  it('joins another column at the card it is over', () => {
    const start = board({ todo: [a, b, c], in_progress: [x, y] });
    const over = dragOver(start, 'b', 'y');
    expect(over.todo.map((t) => t.id)).toEqual(['a', 'c']);
    expect(over.in_progress.map((t) => t.id)).toEqual(['x', 'b', 'y']);
  });

  it('joins an empty column at its end when over the column itself', () => {
    const over = dragOver(board({ todo: [a, b] }), 'a', 'column:done');
    expect(over.done.map((t) => t.id)).toEqual(['a']);
  });

  it('leaves the columns as they are within one column', () => {
    const start = board({ todo: [a, b, c] });
    expect(dragOver(start, 'a', 'c')).toBe(start);
  });
});

describe('dropping a card: the move that is sent', () => {
  // Once a card has joined a column, it is over its own place there when it is let go.
  it('across columns, after the card above where it landed', () => {
    const columns = dragOver(board({ todo: [a, b, c], in_progress: [x, y] }), 'b', 'y');
    expect(dropOf(columns, b, 'b', [a, b, c])?.body).toEqual({ status: 'in_progress', after_id: 'x' });
  });

  it('across columns, at the top: before the first card', () => {
    const columns = dragOver(board({ todo: [a, b], in_progress: [x, y] }), 'a', 'x');
    expect(dropOf(columns, a, 'a', [a, b])?.body).toEqual({ status: 'in_progress', before_id: 'x' });
  });

  it('across columns, then further down the new column: after the card it was dropped on', () => {
    const columns = dragOver(board({ todo: [a, b], in_progress: [x, y] }), 'a', 'x');
    expect(dropOf(columns, a, 'y', [a, b])?.body).toEqual({ status: 'in_progress', after_id: 'y' });
  });

  it('into an empty column: no neighbour', () => {
    const columns = dragOver(board({ todo: [a, b] }), 'a', 'column:in_review');
    expect(dropOf(columns, a, 'column:in_review', [a, b])?.body).toEqual({ status: 'in_review' });
  });

  it('within a column, down: after the card it was dropped on', () => {
    const columns = board({ todo: [a, b, c] });
    expect(dropOf(columns, a, 'c', [a, b, c])?.body).toEqual({ status: 'todo', after_id: 'c' });
  });

  it('within a column, up to the top: before the first card', () => {
    const columns = board({ todo: [a, b, c] });
    expect(dropOf(columns, c, 'a', [a, b, c])?.body).toEqual({ status: 'todo', before_id: 'a' });
  });

  it('back where it started: nothing is sent', () => {
    const columns = board({ todo: [a, b, c] });
    expect(dropOf(columns, b, 'b', [a, b, c])).toBeNull();
  });
});
