import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import type { Notification } from './list-notifications.ts';
import { changeCachedNotifications, restoreNotifications } from './notification-cache.ts';
import { notificationKeys } from './query-keys.ts';

export interface NotificationChange {
  notification: Notification;
  read?: boolean;
  archived?: boolean;
}

/** How the bell's number moves when `change` applies to its notification. */
function unreadDelta({ notification, read, archived }: NotificationChange): number {
  const countedBefore = notification.read_at === null && notification.archived_at === null;
  const unreadAfter = read === undefined ? notification.read_at === null : !read;
  const archivedAfter = archived === undefined ? notification.archived_at !== null : archived;
  return Number(unreadAfter && !archivedAfter) - Number(countedBefore);
}

/** The notification as it will be: times set now, or cleared. */
function applied({ notification, read, archived }: NotificationChange): Notification {
  const now = new Date().toISOString();
  return {
    ...notification,
    ...(read === undefined ? {} : { read_at: read ? (notification.read_at ?? now) : null }),
    ...(archived === undefined ? {} : { archived_at: archived ? (notification.archived_at ?? now) : null }),
  };
}

/**
 * PATCH /v1/me/notifications/{id}: read or unread, archived or not. Shown at once in the inbox and the bell,
 * put back if refused; the lists are read again after either way (an archived one leaves its list then).
 */
export function useUpdateNotification() {
  return useMutation({
    mutationFn: ({ notification, read, archived }: NotificationChange) =>
      unwrap(
        api.PATCH('/v1/me/notifications/{id}', {
          params: { path: { id: notification.id } },
          body: { read, archived },
        }),
      ),
    onMutate: (change, { client }) =>
      changeCachedNotifications(
        client,
        (each) => (each.id === change.notification.id ? applied(change) : each),
        (count) => count + unreadDelta(change),
      ),
    onError: (_error, _change, snapshot, { client }) => restoreNotifications(client, snapshot),
    onSettled: (_data, _error, _change, _snapshot, { client }) =>
      client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
