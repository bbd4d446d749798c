import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { workspaceKeys } from './query-keys.ts';

/** GET /v1/workspaces, every page: the caller's workspaces, each with the caller's role. */
export function workspacesQueryOptions() {
  return queryOptions({
    queryKey: workspaceKeys.list({}),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(api.GET('/v1/workspaces', { params: { query: { limit: MAX_PAGE_SIZE, cursor } }, signal })),
      ),
  });
}

export function useWorkspaces() {
  return useQuery(workspacesQueryOptions());
}
