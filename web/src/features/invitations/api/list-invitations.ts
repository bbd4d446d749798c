import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { invitationKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/invitations, every page and state (owners and admins only). */
export function invitationsQueryOptions(slug: string) {
  return queryOptions({
    queryKey: invitationKeys.list({ slug }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/invitations', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useInvitations(slug: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...invitationsQueryOptions(slug), enabled, refetchOnMount: 'always' });
}
