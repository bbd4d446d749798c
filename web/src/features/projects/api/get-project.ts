import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { projectKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/projects/{key}: the project, with its name and whether it is archived. */
export function projectQueryOptions(slug: string, key: string) {
  return queryOptions({
    queryKey: [...projectKeys.details(), slug, key] as const,
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/workspaces/{slug}/projects/{key}', { params: { path: { slug, key } }, signal })),
  });
}

export function useProject(slug: string, key: string) {
  return useQuery(projectQueryOptions(slug, key));
}
