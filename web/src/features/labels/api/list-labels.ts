import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { labelKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/labels, every page. */
export function labelsQueryOptions(slug: string) {
  return queryOptions({
    queryKey: labelKeys.list({ slug }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/labels', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useLabels(slug: string) {
  return useQuery(labelsQueryOptions(slug));
}
