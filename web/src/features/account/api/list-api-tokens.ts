import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { accountKeys } from './query-keys.ts';

/** GET /v1/me/tokens, every page: the active tokens and those ended in the last 30 days, newest first. */
export function apiTokensQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.tokens(),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/me/tokens', {
            params: { query: { limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
            signal,
          }),
        ),
      ),
  });
}

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions());
}
