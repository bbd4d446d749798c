import { createQueryKeys } from '../../../lib/query/query-keys.ts';

const keys = createQueryKeys<{ taskId: string }>('attachments');

/** Attachments: `lists()` ⊃ `list({ taskId })` (a task's files), `details()` ⊃ `download(id)` (its link). */
export const attachmentKeys = {
  ...keys,
  download: (attachmentId: string) => [...keys.detail(attachmentId), 'download'] as const,
};
