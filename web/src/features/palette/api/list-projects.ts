import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { paletteKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/projects, every page: the projects the palette jumps to. */
export function paletteProjectsQueryOptions(slug: string) {
  return queryOptions({
    queryKey: paletteKeys.projects(slug),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/projects', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
  });
}

export function usePaletteProjects(slug: string, enabled: boolean) {
  return useQuery({ ...paletteProjectsQueryOptions(slug), enabled });
}
