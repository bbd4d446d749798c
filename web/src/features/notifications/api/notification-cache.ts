import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Notification, NotificationPages } from './list-notifications.ts';
import { notificationKeys } from './query-keys.ts';
import type { UnreadCount } from './unread-count.ts';

/** What the caches held before an optimistic change, to put back should the server refuse it. */
export interface NotificationSnapshot {
  lists: [QueryKey, NotificationPages | undefined][];
  count: UnreadCount | undefined;
}

/**
 * Changes every cached inbox list's notifications with `apply` and the bell's number with `count`, at once,
 * after stopping reads in flight that would overwrite the change.
 */
export async function changeCachedNotifications(
  client: QueryClient,
  apply: (notification: Notification) => Notification,
  count: (current: number) => number,
): Promise<NotificationSnapshot> {
  await client.cancelQueries({ queryKey: notificationKeys.all });
  const snapshot: NotificationSnapshot = {
    lists: client.getQueriesData<NotificationPages>({ queryKey: notificationKeys.lists() }),
    count: client.getQueryData<UnreadCount>(notificationKeys.unreadCount()),
  };
  client.setQueriesData<NotificationPages>(
    { queryKey: notificationKeys.lists() },
    (pages) =>
      pages && { ...pages, pages: pages.pages.map((page) => ({ ...page, data: page.data.map(apply) })) },
  );
  if (snapshot.count)
    client.setQueryData<UnreadCount>(notificationKeys.unreadCount(), {
      ...snapshot.count,
      unread: Math.max(0, count(snapshot.count.unread)),
    });
  return snapshot;
}

export function restoreNotifications(client: QueryClient, snapshot: NotificationSnapshot | undefined): void {
  if (!snapshot) return;
  for (const [key, pages] of snapshot.lists) client.setQueryData(key, pages);
  if (snapshot.count) client.setQueryData(notificationKeys.unreadCount(), snapshot.count);
}
