import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { projectKeys } from './query-keys.ts';

/**
 * GET /v1/workspaces/{slug}/projects?include_archived=true, every page (at most 100 projects): one list
 * for the header, the home and its archived toggle, which each pick the projects they show.
 */
export function projectsQueryOptions(slug: string) {
  return queryOptions({
    queryKey: projectKeys.list({ slug }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/projects', {
            params: { path: { slug }, query: { include_archived: 'true', limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function useProjects(slug: string) {
  return useQuery(projectsQueryOptions(slug));
}
