import type { QueryClient } from '@tanstack/react-query';
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
