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

/** `fresh`: read again on every mount, for screens about the members themselves (settings). */
export function useMembers(slug: string, { fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({ ...membersQueryOptions(slug), ...(fresh ? { refetchOnMount: 'always' as const } : {}) });
}
