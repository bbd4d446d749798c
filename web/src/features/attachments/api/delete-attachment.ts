import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import type { Attachment } from './list-attachments.ts';
import { attachmentKeys } from './query-keys.ts';

/** DELETE /v1/attachments/{id}: the attachment and its file. */
export function deleteAttachment(attachmentId: string) {
  return unwrap(api.DELETE('/v1/attachments/{id}', { params: { path: { id: attachmentId } } }));
}

/** Deletes one the person chose; the task's list is read again either way. */
export function useDeleteAttachment(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attachment: Attachment) => deleteAttachment(attachment.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: attachmentKeys.list({ taskId }) }),
  });
}
