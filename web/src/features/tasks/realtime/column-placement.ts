import type { QueryKey } from '@tanstack/react-query';
import type { Task, TaskPages } from '../api/list-tasks.ts';
import type { TaskListFilters } from '../api/query-keys.ts';
import { projectKeyOf } from '../task-key.ts';

/** The key of a column the board reads: a project's tasks of one status, by position, nothing filtered out. */
export interface ColumnKey {
  slug: string;
  key: string;
  status: string;
}

const COLUMN_FIELDS = new Set(['slug', 'key', 'status', 'sort', 'limit']);

/**
 * The column a task list's query key is of, or null for any other list (filtered, searched, sorted
 * otherwise, a workspace's): those can only be read again, since whether a changed task still belongs in
 * them is the API's to say.
 */
export function columnOf(queryKey: QueryKey): ColumnKey | null {
  const filters = queryKey[2];
  if (queryKey.length !== 3 || typeof filters !== 'object' || filters === null) return null;
  const { slug, key, status, sort } = filters as Partial<TaskListFilters>;
  const used = Object.entries(filters).filter(([, value]) => value !== undefined);
  if (!used.every(([name]) => COLUMN_FIELDS.has(name))) return null;
  if (typeof slug !== 'string' || typeof key !== 'string' || typeof status !== 'string') return null;
  if (status.includes(',') || sort !== 'position') return null;
  return { slug, key, status };
}

/**
 * A column's pages with the task where it now belongs: out if it left the column, else among the cards
 * by position (code point order, as the API sorts). A card whose place is past the pages read so far is
 * left for the page that will bring it.
 */
export function placeInColumn(pages: TaskPages, column: ColumnKey, task: Task): TaskPages {
  const without = pages.pages.map((page) => ({ ...page, data: page.data.filter((t) => t.id !== task.id) }));
  const belongs = task.status === column.status && projectKeyOf(task.key) === column.key;
  if (!belongs) return { ...pages, pages: without };
  for (const [index, page] of without.entries()) {
    const at = page.data.findIndex((t) => comesBefore(task, t));
    if (at < 0) continue;
    const data = [...page.data.slice(0, at), task, ...page.data.slice(at)];
    return { ...pages, pages: without.map((p, i) => (i === index ? { ...p, data } : p)) };
  }
  const last = without.at(-1);
  if (!last || last.next_cursor !== null) return { ...pages, pages: without };
  return { ...pages, pages: [...without.slice(0, -1), { ...last, data: [...last.data, task] }] };
}

function comesBefore(task: Task, other: Task): boolean {
  if (task.position !== other.position) return task.position < other.position;
  return task.id < other.id;
}

/** Whether the pages hold the task. */
export function holds(pages: TaskPages, taskId: string): boolean {
  return pages.pages.some((page) => page.data.some((t) => t.id === taskId));
}
