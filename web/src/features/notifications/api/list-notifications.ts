import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { notificationKeys, type NotificationFilters } from './query-keys.ts';

export type Notification = components['schemas']['Notification'];
export type NotificationList = components['schemas']['NotificationList'];
/** The inbox as the cache holds it: the pages read so far, in order. */
export type NotificationPages = InfiniteData<NotificationList, unknown>;

const flag = (value: boolean) => (value ? 'true' : 'false');

/** GET /v1/me/notifications, page by page through the cursor. */
export function notificationsQueryOptions(filters: NotificationFilters) {
  return infiniteQueryOptions({
    queryKey: notificationKeys.list(filters),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: NotificationList) => page.next_cursor ?? undefined,
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET('/v1/me/notifications', {
          params: {
            query: { unread: flag(filters.unread), archived: flag(filters.archived), cursor: pageParam },
          },
          signal,
        }),
      ),
  });
}

export function useNotifications(filters: NotificationFilters) {
  return useInfiniteQuery(notificationsQueryOptions(filters));
}

/** The notifications of every page read so far, in order. */
export function notificationsOf(pages: NotificationPages | undefined): Notification[] {
  return pages?.pages.flatMap((page) => page.data) ?? [];
}
