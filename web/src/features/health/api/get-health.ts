import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { healthKeys } from './query-keys.ts';

/** GET /v1/health */
export function healthQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.status(),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/health', { signal })),
    // A probe reports the state of things now; retrying would hide an outage behind a spinner for seconds.
    // People retry with the button instead.
    retry: false,
    // The route's loader has just asked; a failure it saw should not be fetched again because the screen mounted.
    retryOnMount: false,
  });
}

export function useHealth() {
  return useQuery(healthQueryOptions());
}
