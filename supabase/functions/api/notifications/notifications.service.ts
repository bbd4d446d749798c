/**
 * The caller's notifications (docs/notifications.md): listed, counted for the badge, marked read or
 * unread, archived or not, one, many or all at once; and how the caller hears of each type. Everything
 * runs as the caller, whose RLS shows only their own notifications from workspaces they are still in.
 */
import type {
  Notification,
  NotificationSettings,
  NotificationsUpdated,
  UnreadNotificationCount,
} from '../../_shared/api-types.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  countOwnUnread,
  markAllOwnRead,
  markOwnNotification,
  markOwnNotifications,
  selectOwnDeliveries,
  selectOwnNotifications,
  upsertOwnDeliveries,
  type DeliveryRow,
  type NotificationRow,
} from './notifications.queries.ts';
import {
  NOTIFICATION_TYPES,
  type NotificationFilters,
  type NotificationMarks,
  type UpdateNotificationSettingsBody,
} from './notifications.schemas.ts';

/** The badge counts this many at most ("999+" is all a badge can say). */
export const UNREAD_COUNT_CAP = 1000;

/** What an actor is called when the caller may no longer read their profile. */
const FORMER_MEMBER = 'Former member';

export function listNotifications(
  db: Database,
  principal: Principal,
  filters: NotificationFilters,
  page: PageRequest,
): Promise<Page<Notification>> {
  return db.asCaller(principal, async (sql) =>
    pageOf(await selectOwnNotifications(asLastStatement(sql), filters, page), page, notificationOf),
  );
}

export function countUnreadNotifications(
  db: Database,
  principal: Principal,
): Promise<UnreadNotificationCount> {
  return db.asCaller(principal, async (sql) => {
    // One more than the cap tells whether there are more.
    const counted = await countOwnUnread(asLastStatement(sql), UNREAD_COUNT_CAP + 1);
    return {
      object: 'unread_notification_count',
      unread: Math.min(counted, UNREAD_COUNT_CAP),
      more: counted > UNREAD_COUNT_CAP,
    };
  });
}

export function updateNotification(
  db: Database,
  principal: Principal,
  id: string,
  marks: NotificationMarks,
): Promise<Notification> {
  return db.asCaller(principal, async (sql) => {
    const row = await markOwnNotification(asLastStatement(sql), id, marks);
    if (!row) throw notificationNotFound();
    return notificationOf(row);
  });
}

export function updateNotifications(
  db: Database,
  principal: Principal,
  ids: readonly string[],
  marks: NotificationMarks,
): Promise<NotificationsUpdated> {
  return db.asCaller(principal, async (sql) => ({
    object: 'notifications_updated',
    updated: await markOwnNotifications(asLastStatement(sql), ids, marks),
  }));
}

export function markAllNotificationsRead(
  db: Database,
  principal: Principal,
  workspaceSlug: string | undefined,
): Promise<NotificationsUpdated> {
  return db.asCaller(principal, async (sql) => ({
    object: 'notifications_updated',
    updated: await markAllOwnRead(asLastStatement(sql), workspaceSlug ?? null),
  }));
}

export function getNotificationSettings(db: Database, principal: Principal): Promise<NotificationSettings> {
  return db.asCaller(principal, async (sql) => settingsOf(await selectOwnDeliveries(asLastStatement(sql))));
}

export function updateNotificationSettings(
  db: Database,
  principal: Principal,
  body: UpdateNotificationSettingsBody,
): Promise<NotificationSettings> {
  const chosen = NOTIFICATION_TYPES.flatMap((type) => {
    const delivery = body.deliveries[type];
    return delivery ? [{ type, delivery }] : [];
  });
  return db.asCaller(principal, async (sql) => {
    // One round trip: the read runs after the write, on the same connection.
    const [, rows] = await Promise.all([
      upsertOwnDeliveries(sql, chosen),
      selectOwnDeliveries(asLastStatement(sql)),
    ]);
    return settingsOf(rows);
  });
}

export function notificationNotFound(): AppError {
  return new AppError('not_found', 'You have no notification with this id.');
}

function settingsOf(rows: readonly DeliveryRow[]): NotificationSettings {
  const deliveries = Object.fromEntries(rows.map((row) => [row.type, row.delivery]));
  return { object: 'notification_settings', deliveries: deliveries as NotificationSettings['deliveries'] };
}

function notificationOf(row: NotificationRow): Notification {
  return {
    object: 'notification',
    id: row.id,
    type: row.type,
    workspace: { id: row.workspace_id, slug: row.workspace_slug, name: row.workspace_name },
    task:
      row.task_id && row.task_key && row.task_title !== null && row.task_status
        ? { id: row.task_id, key: row.task_key, title: row.task_title, status: row.task_status }
        : null,
    actor: row.actor_id ? { id: row.actor_id, display_name: row.actor_name ?? FORMER_MEMBER } : null,
    comment: row.comment_id ? { id: row.comment_id, body: row.comment_body } : null,
    change_count: row.change_count,
    due_date: row.due_date,
    read_at: row.read_at?.toISOString() ?? null,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
