import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { attachmentKeys } from '../api/query-keys.ts';

/** A file was attached or deleted: that task's files are read again (every task's, after a bulk change). */
export function applyAttachmentEvent(queryClient: QueryClient, event: LiveEvent): void {
  if (event.kind === 'bulk') {
    if (event.types.some((type) => type.startsWith('attachment.'))) {
      void queryClient.invalidateQueries({ queryKey: attachmentKeys.lists() });
    }
    return;
  }
  if (!event.type.startsWith('attachment.')) return;
  const queryKey = event.task_id ? attachmentKeys.list({ taskId: event.task_id }) : attachmentKeys.lists();
  void queryClient.invalidateQueries({ queryKey });
}
