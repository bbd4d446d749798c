import { createQueryKeys } from '../../../lib/query/query-keys.ts';

export interface NotificationFilters {
  unread: boolean;
  archived: boolean;
}

const keys = createQueryKeys<NotificationFilters>('notifications');

/**
 * The signed-in person's notifications: `list(filters)` is the inbox as filtered, `unreadCount()` the
 * bell's number, `settings()` how they hear. Invalidating `all` reaches these three.
 */
export const notificationKeys = {
  all: keys.all,
  lists: keys.lists,
  list: keys.list,
  unreadCount: () => [...keys.all, 'unread-count'] as const,
  /** How the person hears of each type: GET /v1/me/notification-settings. */
  settings: () => [...keys.all, 'settings'] as const,
  /**
   * Who watches a task: GET /v1/tasks/{id}/watchers. Outside `all` on purpose: a notification read or
   * received says nothing about who watches, and re-reading an open panel's watchers for a task just
   * deleted would only fetch a 404.
   */
  watchers: (taskId: string) => ['task-watchers', taskId] as const,
};
