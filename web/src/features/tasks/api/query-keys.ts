import type { operations } from '@api-spec/schema.d.ts';
import { createQueryKeys } from '../../../lib/query/query-keys.ts';

/** The filters and sort of a project's task list, as listTasks takes them (no cursor: pages are inside). */
export type TaskListQuery = Omit<NonNullable<operations['listTasks']['parameters']['query']>, 'cursor'>;

/** The filters and sort of a workspace's task list (listWorkspaceTasks: listTasks's, plus `project`). */
export type WorkspaceTaskListQuery = Omit<
  NonNullable<operations['listWorkspaceTasks']['parameters']['query']>,
  'cursor'
>;

/** Which tasks a list or a count is of: a project's, narrowed by the board's filters. */
export interface TaskListFilters extends TaskListQuery {
  slug: string;
  key: string;
}

const keys = createQueryKeys<TaskListFilters>('tasks');

/**
 * Tasks, from general to specific: `lists()` ⊃ `list(filters)` (a column, or the list view),
 * `counts()` ⊃ `count(filters)` (the column counts), `details()` ⊃ `detail(id)` ⊃ its comments and events,
 * and `byKey(slug, taskKey)` for a task addressed by its key (`WEB-12`) from the URL. A change to one task
 * invalidates `lists()`, `counts()` and its `detail(id)`.
 */
export const taskKeys = {
  ...keys,
  counts: () => [...keys.all, 'count'] as const,
  count: (filters: Omit<TaskListFilters, 'sort' | 'limit'>) => [...keys.all, 'count', filters] as const,
  // Across a workspace's projects (my open tasks, the home's counts), under `lists()` and `counts()`.
  workspaceList: (slug: string, query: WorkspaceTaskListQuery) =>
    [...keys.lists(), 'workspace', slug, query] as const,
  workspaceCount: (slug: string, query: Omit<WorkspaceTaskListQuery, 'sort' | 'limit'>) =>
    [...keys.all, 'count', 'workspace', slug, query] as const,
  byKey: (slug: string, taskKey: string) => [...keys.details(), 'key', slug, taskKey] as const,
  comments: (taskId: string) => [...keys.detail(taskId), 'comments'] as const,
  events: (taskId: string) => [...keys.detail(taskId), 'events'] as const,
};
