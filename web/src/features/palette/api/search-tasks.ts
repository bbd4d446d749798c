import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { paletteKeys } from './query-keys.ts';

/** The few best matches are enough to jump to; the board's filters are for browsing. */
const RESULTS = 8;

/** GET /v1/workspaces/{slug}/tasks?q=…: tasks of every project whose title or description holds `q`. */
export function searchTasksQueryOptions(slug: string, q: string) {
  return queryOptions({
    queryKey: paletteKeys.list({ slug, q }),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/workspaces/{slug}/tasks', {
          params: { path: { slug }, query: { q, limit: RESULTS, sort: '-updated_at' } },
          signal,
        }),
      ),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useSearchTasks(slug: string, q: string) {
  return useQuery(searchTasksQueryOptions(slug, q));
}
