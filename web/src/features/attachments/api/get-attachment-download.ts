import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { attachmentKeys } from './query-keys.ts';

/** A download link lasts 5 minutes; one older than this is asked for again before it is used. */
const FRESH_FOR_MS = 3 * 60 * 1000;

/** GET /v1/attachments/{id}/download: a signed link to the file (images inline, others as downloads). */
export function attachmentDownloadQueryOptions(attachmentId: string) {
  return queryOptions({
    queryKey: attachmentKeys.download(attachmentId),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/attachments/{id}/download', { params: { path: { id: attachmentId } }, signal })),
    staleTime: FRESH_FOR_MS,
    gcTime: FRESH_FOR_MS,
  });
}

/** The link of an image, to show it as a thumbnail and in the lightbox. */
export function useAttachmentDownload(attachmentId: string, enabled = true) {
  return useQuery({ ...attachmentDownloadQueryOptions(attachmentId), enabled });
}
