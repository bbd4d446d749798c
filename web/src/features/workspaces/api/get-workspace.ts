import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { workspaceKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}: the workspace, with the caller's `role` in it. */
export function workspaceQueryOptions(slug: string) {
  return queryOptions({
    queryKey: workspaceKeys.detail(slug),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/workspaces/{slug}', { params: { path: { slug } }, signal })),
  });
}

export function useWorkspace(slug: string) {
  return useQuery(workspaceQueryOptions(slug));
}
