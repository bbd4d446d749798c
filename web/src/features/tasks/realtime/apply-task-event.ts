import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import type { Task, TaskPages } from '../api/list-tasks.ts';
import { taskKeys } from '../api/query-keys.ts';
import { cachedComment, isTask, newestCopy } from './cached-tasks.ts';
import { columnOf, holds, placeInColumn } from './column-placement.ts';
import { recount } from './recount.ts';
import { taskCacheAction } from './task-cache-action.ts';

/** Brings the cached tasks, lists, counts and comments up to date with one event of the workspace `slug`. */
export function applyTaskEvent(queryClient: QueryClient, event: LiveEvent, slug: string): void {
  const taskId = event.kind === 'change' ? (event.task_id ?? event.resource_id) : null;
  const action = taskCacheAction(event, taskId ? newestCopy(queryClient, taskId) : undefined);
  const invalidate = (queryKey: QueryKey) => void queryClient.invalidateQueries({ queryKey });
  switch (action.kind) {
    case 'ignore':
      return;
    case 'refetch-all':
      return invalidate(taskKeys.all);
    case 'comments':
      if (event.kind === 'change' && isEcho(queryClient, action.taskId, event)) return;
      invalidate(taskKeys.comments(action.taskId));
      return invalidate(taskKeys.events(action.taskId));
    case 'remove':
      removeFromLists(queryClient, action.taskId);
      invalidate(taskKeys.counts());
      return forgetDetail(queryClient, action.taskId);
    case 'refetch':
      invalidate(taskKeys.lists());
      invalidate(taskKeys.counts());
      if (action.taskId) invalidateDetail(queryClient, action.taskId);
      return;
    case 'patch': {
      const before = newestCopy(queryClient, action.taskId);
      const task = patchEverywhere(queryClient, action.taskId, action.changes);
      if (task) placeEverywhere(queryClient, task, slug);
      if (before && task) recount(queryClient, slug, before, task);
      else invalidate(taskKeys.counts());
      invalidate(taskKeys.events(action.taskId));
      return;
    }
  }
}

/** Writes the changes into the task read by key; returns the task as it now is. */
function patchEverywhere(queryClient: QueryClient, taskId: string, changes: Partial<Task>): Task | undefined {
  const base = newestCopy(queryClient, taskId);
  if (!base) return undefined;
  const task: Task = { ...base, ...changes };
  for (const [queryKey, data] of queryClient.getQueriesData<Task>({ queryKey: taskKeys.details() }))
    if (isTask(data) && data.id === taskId) queryClient.setQueryData(queryKey, { ...data, ...changes });
  return task;
}

/**
 * The task as the API answered a change of it, in every cached copy (its panel, the columns of the
 * workspace `slug`), unless a newer version is cached already (a later change, read live meanwhile).
 */
export function writeTaskEverywhere(queryClient: QueryClient, task: Task, slug: string): void {
  const cached = newestCopy(queryClient, task.id);
  if (cached && cached.version > task.version) return;
  for (const [queryKey, data] of queryClient.getQueriesData<Task>({ queryKey: taskKeys.details() }))
    if (isTask(data) && data.id === task.id) queryClient.setQueryData(queryKey, task);
  placeEverywhere(queryClient, task, slug);
}

/**
 * The card where it now belongs in every cached column of its workspace (also a task just created);
 * lists that are not plain columns read again.
 */
export function placeEverywhere(queryClient: QueryClient, task: Task, slug: string): void {
  for (const [queryKey, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    if (!data?.pages) {
      void queryClient.invalidateQueries({ queryKey, exact: true });
      continue;
    }
    const column = columnOf(queryKey);
    if (!column) void queryClient.invalidateQueries({ queryKey, exact: true });
    else if (column.slug === slug)
      queryClient.setQueryData<TaskPages>(queryKey, placeInColumn(data, column, task));
  }
}

function removeFromLists(queryClient: QueryClient, taskId: string): void {
  for (const [queryKey, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists() })) {
    if (!data?.pages) void queryClient.invalidateQueries({ queryKey, exact: true });
    else if (holds(data, taskId))
      queryClient.setQueryData<TaskPages>(queryKey, {
        ...data,
        pages: data.pages.map((page) => ({ ...page, data: page.data.filter((t) => t.id !== taskId) })),
      });
  }
}

/** The task as its panel read it (by id, or by key from the URL), and what hangs under it. */
function invalidateDetail(queryClient: QueryClient, taskId: string): void {
  void queryClient.invalidateQueries({ queryKey: taskKeys.detail(taskId) });
  for (const [queryKey, data] of queryClient.getQueriesData<Task>({ queryKey: taskKeys.details() }))
    if (isTask(data) && data.id === taskId) void queryClient.invalidateQueries({ queryKey, exact: true });
}

/** A deleted task: dropped from the cache, except where a panel shows it (it reads it again, and says so). */
function forgetDetail(queryClient: QueryClient, taskId: string): void {
  queryClient.removeQueries({ queryKey: taskKeys.detail(taskId) });
  for (const query of queryClient.getQueryCache().findAll({ queryKey: taskKeys.details() })) {
    if (!isTask(query.state.data) || query.state.data.id !== taskId) continue;
    if (query.isActive()) void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    else queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
  }
}

/** A comment event the cached comments already have (this tab's own comment, read back). */
function isEcho(queryClient: QueryClient, taskId: string, event: LiveEvent & { kind: 'change' }): boolean {
  if (event.version === null || !event.resource_id || event.type === 'comment.deleted') return false;
  const cached = cachedComment(queryClient, taskId, event.resource_id);
  return cached !== undefined && cached.version >= event.version;
}
