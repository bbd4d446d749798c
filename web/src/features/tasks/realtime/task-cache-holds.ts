import type { QueryClient } from '@tanstack/react-query';
import type { ChangeMessage } from '../../../lib/realtime/live-message.ts';
import { cachedComment, newestCopy } from './cached-tasks.ts';

/**
 * Whether the cache holds the task or comment a message is about at the message's version already: the
 * message of this tab's own change coming back, which the live sync may then take without reading the
 * feed. A deletion, or anything else, is never held.
 */
export function taskCacheHolds(queryClient: QueryClient, message: ChangeMessage): boolean {
  const { type, version, resource_id: resourceId, task_id: taskId } = message;
  if (version === null || resourceId === null || type.endsWith('.deleted')) return false;
  const cached = type.startsWith('task.')
    ? newestCopy(queryClient, resourceId)
    : type.startsWith('comment.') && taskId
      ? cachedComment(queryClient, taskId, resourceId)
      : undefined;
  return cached !== undefined && cached.version >= version;
}
