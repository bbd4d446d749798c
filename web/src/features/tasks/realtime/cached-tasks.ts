import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Task, TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';

interface CachedComment {
  id: string;
  version: number;
}

/** Every cached copy of a task: in the lists, and the task read by its key. */
function* cachedCopies(queryClient: QueryClient, taskId: string): Generator<Task> {
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() }))
    for (const page of data?.pages ?? []) yield* page.data.filter((t) => t.id === taskId);
  for (const [, data] of queryClient.getQueriesData<Task>({ queryKey: taskKeys.details() }))
    if (isTask(data) && data.id === taskId) yield data;
}

/** The newest cached copy of a task, if any. */
export function newestCopy(queryClient: QueryClient, taskId: string): Task | undefined {
  let newest: Task | undefined;
  for (const task of cachedCopies(queryClient, taskId))
    if (!newest || task.version > newest.version) newest = task;
  return newest;
}

/**
 * The newest copy of the task `taskKey` (`WEB-12`) among the cached lists of the workspace `slug`: the
 * card the board or the list view shows, which holds the whole task as the list read it.
 */
export function cachedCard(queryClient: QueryClient, slug: string, taskKey: string): Task | undefined {
  let newest: Task | undefined;
  for (const [queryKey, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    if (listWorkspace(queryKey) !== slug) continue;
    for (const page of data?.pages ?? [])
      for (const task of page.data)
        if (task.key === taskKey && (!newest || task.version > newest.version)) newest = task;
  }
  return newest;
}

/** The workspace a cached list is of: a project's (`list({ slug, … })`) or a whole workspace's. */
function listWorkspace(queryKey: QueryKey): string | undefined {
  const [, , filters, slug] = queryKey;
  if (filters === 'workspace') return typeof slug === 'string' ? slug : undefined;
  if (typeof filters === 'object' && filters !== null && 'slug' in filters)
    return typeof filters.slug === 'string' ? filters.slug : undefined;
  return undefined;
}

/** The cached comment of a task, if its comments are cached and hold it. */
export function cachedComment(
  queryClient: QueryClient,
  taskId: string,
  commentId: string,
): CachedComment | undefined {
  const comments = queryClient.getQueryData<CachedComment[]>(taskKeys.comments(taskId));
  return comments?.find((comment) => comment.id === commentId);
}

export function isTask(data: unknown): data is Task {
  return typeof data === 'object' && data !== null && (data as { object?: unknown }).object === 'task';
}
