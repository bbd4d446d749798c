import { api, unwrap } from '../../../lib/api/api-client.ts';

/** POST /v1/attachments/{id}/complete: the API checks what arrived and makes the attachment ready. */
export function completeAttachment(attachmentId: string, signal?: AbortSignal) {
  return unwrap(
    api.POST('/v1/attachments/{id}/complete', { params: { path: { id: attachmentId } }, signal }),
  );
}
