import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { memberKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/members, every page (for assignee pickers and filters). */
export function membersQueryOptions(slug: string) {
  return queryOptions({
    queryKey: memberKeys.list({ slug }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/members', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useMembers(slug: string) {
  return useQuery(membersQueryOptions(slug));
}
