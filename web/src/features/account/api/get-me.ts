import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** GET /v1/me */
export function meQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.me(),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/me', { signal })),
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
