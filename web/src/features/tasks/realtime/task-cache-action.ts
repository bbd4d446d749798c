import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import type { Task } from '../api/list-tasks.ts';

/** What one event does to the cached tasks. */
export type TaskCacheAction =
  /** Nothing: not about tasks, or an echo of a change the cache already has. */
  | { kind: 'ignore' }
  /** The task is gone: out of every list, its panel reads it again (and finds it deleted). */
  | { kind: 'remove'; taskId: string }
  /** Write these fields into every cached copy of the task, and place its card again. */
  | { kind: 'patch'; taskId: string; changes: Partial<Task> }
  /** Read the task lists and counts again, and the task itself when there is one. */
  | { kind: 'refetch'; taskId: string | null }
  /** A task's comments changed: read them and its activity again. */
  | { kind: 'comments'; taskId: string }
  /** Many things changed at once (a bulk message, a project renamed, a label deleted): read all tasks again. */
  | { kind: 'refetch-all' };

/** The fields of a task the feed's events carry and the cache can write in place (the card, its panel). */
const PATCHABLE = new Set<keyof Task>([
  'title',
  'description',
  'status',
  'priority',
  'assignee_id',
  'due_date',
  'position',
  'label_ids',
  'completed_at',
  'updated_at',
]);

/** Task events after which the task is read again whole, never patched in place. */
const READ_WHOLE = new Set(['task.created', 'task.restored']);

/** Events about other resources that change what tasks show (keys, labels, the archived flag). */
const TOUCHES_ALL_TASKS = new Set([
  'project.updated',
  'project.archived',
  'project.unarchived',
  'project.deleted',
  'label.updated',
  'label.deleted',
]);

/**
 * What an event does to the cache, given the cached copy of its task (the newest, if several): an event
 * whose version is not newer than the cached one is an echo (of this tab's own change, or one the cache
 * read since) and is ignored. A change to the next version writes its fields in place; anything else reads
 * again what it touches.
 */
export function taskCacheAction(event: LiveEvent, cached: Task | undefined): TaskCacheAction {
  if (event.kind === 'bulk') return { kind: 'refetch-all' };
  if (TOUCHES_ALL_TASKS.has(event.type)) return { kind: 'refetch-all' };
  if (event.type.startsWith('comment.'))
    return event.task_id ? { kind: 'comments', taskId: event.task_id } : { kind: 'ignore' };
  if (!event.type.startsWith('task.')) return { kind: 'ignore' };
  const taskId = event.task_id ?? event.resource_id;
  if (!taskId) return { kind: 'refetch', taskId: null };
  if (event.type === 'task.deleted') return { kind: 'remove', taskId };
  const newer = cached === undefined || event.version === null || event.version > cached.version;
  if (!newer) return { kind: 'ignore' };
  // In place only from the version just before: otherwise a change in between is not in the cache. A task
  // created or restored is read whole (a restored one is back in lists that had dropped it).
  if (cached === undefined || event.version !== cached.version + 1 || READ_WHOLE.has(event.type))
    return { kind: 'refetch', taskId };
  const changes = patchOf(event.fields);
  if (!changes) return { kind: 'refetch', taskId };
  return { kind: 'patch', taskId, changes: { ...changes, version: event.version } };
}

/** The fields as a patch of a task, or null when one of them cannot be written in place. */
function patchOf(fields: Readonly<Record<string, unknown>>): Partial<Task> | null {
  const names = Object.keys(fields);
  if (names.length === 0 || !names.every((name) => PATCHABLE.has(name as keyof Task))) return null;
  return fields as Partial<Task>;
}
