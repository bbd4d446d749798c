/**
 * SQL for the caller's own notifications and notification settings. Runs as the caller: RLS keeps every
 * statement to their own rows, and to the workspaces they are still a member of.
 */
import type { NotificationDelivery, NotificationType, TaskStatus } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { rowsToFetch, type PageRequest, type SortKey } from '../../_shared/pages.ts';
import type { NotificationFilters, NotificationMarks } from './notifications.schemas.ts';

export interface NotificationRow extends Record<string, unknown> {
  id: string;
  type: NotificationType;
  change_count: number;
  due_date: string | null;
  read_at: Date | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  workspace_id: string;
  workspace_slug: string;
  workspace_name: string;
  task_id: string | null;
  task_key: string | null;
  task_title: string | null;
  task_status: TaskStatus | null;
  actor_id: string | null;
  /** Null when the caller may not read the actor's profile any more (they share no workspace). */
  actor_name: string | null;
  comment_id: string | null;
  comment_body: string | null;
}

export interface ListedNotificationRow extends NotificationRow {
  sort_key: SortKey;
}

export interface DeliveryRow extends Record<string, unknown> {
  type: NotificationType;
  delivery: NotificationDelivery;
}

/** A notification as the API answers it, from `source` (a relation of notifications rows, aliased `n`). */
const notificationsFrom = (source: string) => `
  select n.id, n.type, n.change_count, to_char(n.due_date, 'YYYY-MM-DD') as due_date, n.read_at,
    n.archived_at, n.created_at, n.updated_at, json_build_array(n.updated_at, n.id) as sort_key,
    w.id as workspace_id, w.slug as workspace_slug, w.name as workspace_name,
    t.id as task_id, p.key || '-' || t.number as task_key, t.title as task_title, t.status as task_status,
    n.actor_id, a.display_name as actor_name, n.comment_id, c.body as comment_body
  from ${source} n
  join public.workspaces w on w.id = n.workspace_id
  left join public.tasks t on t.id = n.task_id
  left join public.projects p on p.id = t.project_id
  left join public.profiles a on a.user_id = n.actor_id
  left join public.comments c on c.id = n.comment_id`;

/** Sets a mark's time when `true`, keeps it when it is set already, clears it when `false`. */
const MARKS = `read_at = case when $2::boolean is null then read_at when $2 then coalesce(read_at, now()) end,
  archived_at = case when $3::boolean is null then archived_at when $3 then coalesce(archived_at, now()) end`;

/** The caller's notifications, most recently changed first. */
export function selectOwnNotifications(
  sql: Sql,
  filters: NotificationFilters,
  page: PageRequest,
): Promise<ListedNotificationRow[]> {
  const [updatedAt, id] = page.cursor ?? [null, null];
  return sql.query<ListedNotificationRow>(
    `${notificationsFrom('public.notifications')}
     where n.user_id = (select auth.uid())
       and (not $1::boolean or n.read_at is null)
       and (case when $2::boolean then n.archived_at is not null else n.archived_at is null end)
       and ($3::text is null or w.slug = $3)
       and ($4::timestamptz is null or (n.updated_at, n.id) < ($4::timestamptz, $5::uuid))
     order by n.updated_at desc, n.id desc
     limit $6`,
    [
      filters.unread ?? false,
      filters.archived ?? false,
      filters.workspace ?? null,
      updatedAt,
      id,
      rowsToFetch(page),
    ],
  );
}

/** Up to `cap` of the caller's unread notifications, counted. */
export async function countOwnUnread(sql: Sql, cap: number): Promise<number> {
  const [row] = await sql.query<{ count: number }>(
    `select count(*)::integer as count from (
       select 1 from public.notifications
       where user_id = (select auth.uid()) and read_at is null and archived_at is null
       limit $1) unread`,
    [cap],
  );
  return row?.count ?? 0;
}

/** Marks one of the caller's notifications; the notification as it now is, or none if it is not theirs. */
export async function markOwnNotification(
  sql: Sql,
  id: string,
  marks: NotificationMarks,
): Promise<NotificationRow | undefined> {
  const [row] = await sql.query<NotificationRow>(
    `with changed as (
       update public.notifications set ${MARKS}
       where id = $1 and user_id = (select auth.uid())
       returning *)
     ${notificationsFrom('changed')}`,
    [id, marks.read ?? null, marks.archived ?? null],
  );
  return row;
}

/** Marks those of `ids` that are the caller's; how many changed. */
export async function markOwnNotifications(
  sql: Sql,
  ids: readonly string[],
  marks: NotificationMarks,
): Promise<number> {
  const [row] = await sql.query<{ count: number }>(
    `with changed as (
       update public.notifications set ${MARKS}
       where id = any ($1::uuid[]) and user_id = (select auth.uid())
         and (($2::boolean is not null and (read_at is null) = $2) or ($3::boolean is not null and (archived_at is null) = $3))
       returning 1)
     select count(*)::integer as count from changed`,
    [ids, marks.read ?? null, marks.archived ?? null],
  );
  return row?.count ?? 0;
}

/** Marks read every unread notification of the caller's, or of one workspace's (by slug); how many. */
export async function markAllOwnRead(sql: Sql, workspaceSlug: string | null): Promise<number> {
  const [row] = await sql.query<{ count: number }>(
    `with changed as (
       update public.notifications n set read_at = now()
       where n.user_id = (select auth.uid()) and n.read_at is null
         and ($1::text is null or n.workspace_id = (select w.id from public.workspaces w where w.slug = $1))
       returning 1)
     select count(*)::integer as count from changed`,
    [workspaceSlug],
  );
  return row?.count ?? 0;
}

/** How the caller hears of each type: their choice, or the type's default. */
export function selectOwnDeliveries(sql: Sql): Promise<DeliveryRow[]> {
  return sql.query<DeliveryRow>(
    `select t.type, coalesce(s.delivery, private.default_notification_delivery(t.type)) as delivery
     from unnest(private.notification_types()) with ordinality as t (type, rank)
     left join public.notification_settings s on s.user_id = (select auth.uid()) and s.type = t.type
     order by t.rank`,
  );
}

/** Sets the caller's delivery of each type named. */
export async function upsertOwnDeliveries(
  sql: Sql,
  deliveries: readonly { type: NotificationType; delivery: NotificationDelivery }[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await sql.query(
    `insert into public.notification_settings (user_id, type, delivery)
     select (select auth.uid()), d.type, d.delivery from unnest($1::text[], $2::text[]) as d (type, delivery)
     on conflict (user_id, type) do update set delivery = excluded.delivery, updated_at = now()`,
    [deliveries.map((entry) => entry.type), deliveries.map((entry) => entry.delivery)],
  );
}
