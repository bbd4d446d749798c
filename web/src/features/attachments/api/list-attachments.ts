import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { attachmentKeys } from './query-keys.ts';

export type Attachment = components['schemas']['Attachment'];

/**
 * GET /v1/tasks/{id}/attachments, every page (a task holds at most 20), oldest first: the ready ones, and
 * the caller's own pending uploads.
 */
export function attachmentsQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: attachmentKeys.list({ taskId }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/tasks/{id}/attachments', {
            params: { path: { id: taskId }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useAttachments(taskId: string) {
  return useQuery(attachmentsQueryOptions(taskId));
}
