import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';

type CreateAttachment = components['schemas']['CreateAttachment'];

/** POST /v1/tasks/{id}/attachments: a pending attachment and the signed URL to upload its bytes to. */
export function createAttachment(taskId: string, body: CreateAttachment, signal?: AbortSignal) {
  return unwrap(api.POST('/v1/tasks/{id}/attachments', { params: { path: { id: taskId } }, body, signal }));
}
