import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { notificationKeys } from './query-keys.ts';

export type UnreadCount = { unread: number; more: boolean };

/** GET /v1/me/notifications/unread-count: the bell's number. */
export function unreadCountQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.unreadCount(),
    queryFn: ({ signal }): Promise<UnreadCount> =>
      unwrap(api.GET('/v1/me/notifications/unread-count', { signal })),
  });
}

export function useUnreadCount({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...unreadCountQueryOptions(), enabled });
}
