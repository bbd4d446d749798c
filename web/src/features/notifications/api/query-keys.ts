import { createQueryKeys } from '../../../lib/query/query-keys.ts';

export interface NotificationFilters {
  unread: boolean;
  archived: boolean;
}

const keys = createQueryKeys<NotificationFilters>('notifications');

/**
 * The signed-in person's notifications: `list(filters)` is the inbox as filtered, `unreadCount()` the
 * bell's number. Invalidating `all` reaches both.
 */
export const notificationKeys = {
  all: keys.all,
  lists: keys.lists,
  list: keys.list,
  unreadCount: () => [...keys.all, 'unread-count'] as const,
};
