/**
 * Calls on the caller's notifications, their settings and a task's watchers, typed by the contract, and
 * what the database holds for them, read as the service. `raw` sends bodies and queries the contract
 * forbids, deliberately untyped.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf } from './api-client.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { jsonRequest } from './resource-calls.ts';
import { asService } from './service-transaction.ts';
import { withBearer } from './test-users.ts';

type Schemas = components['schemas'];
export type Notification = Schemas['Notification'];
export type NotificationType = Schemas['NotificationType'];

export const NOTIFICATIONS = '/api/v1/me/notifications';
export const NOTIFICATION_SETTINGS = '/api/v1/me/notification-settings';

export function notificationCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  return {
    /** `query` as it goes after the path, e.g. `?unread=true`. */
    list: (bearer: string, query = '') =>
      responseOf(
        client.GET('/v1/me/notifications', { headers: withAuthorization(bearer), ...rawQuery(query) }),
      ),
    unreadCount: (bearer: string) =>
      responseOf(client.GET('/v1/me/notifications/unread-count', { headers: withAuthorization(bearer) })),
    update: (bearer: string, id: string, body: Schemas['UpdateNotification'], headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/me/notifications/{id}', {
          params: { path: { id } },
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    updateMany: (bearer: string, body: Schemas['UpdateNotifications']) =>
      responseOf(client.POST('/v1/me/notifications/batch', { body, headers: withAuthorization(bearer) })),
    readAll: (bearer: string, body: Schemas['MarkAllNotificationsRead'] = {}) =>
      responseOf(client.POST('/v1/me/notifications/read-all', { body, headers: withAuthorization(bearer) })),
    settings: (bearer: string) =>
      responseOf(client.GET('/v1/me/notification-settings', { headers: withAuthorization(bearer) })),
    updateSettings: (bearer: string, body: Schemas['UpdateNotificationSettings']) =>
      responseOf(client.PUT('/v1/me/notification-settings', { body, headers: withAuthorization(bearer) })),
    raw: {
      list: (bearer: string, query = ''): Promise<ApiResponse> =>
        callApi(app, `${NOTIFICATIONS}${query}`, withBearer(bearer)),
      update: (bearer: string, id: string, body: unknown): Promise<ApiResponse> =>
        callApi(app, `${NOTIFICATIONS}/${id}`, withBearer(bearer, jsonRequest('PATCH', body))),
      updateMany: (bearer: string, body: unknown): Promise<ApiResponse> =>
        callApi(app, `${NOTIFICATIONS}/batch`, withBearer(bearer, jsonRequest('POST', body))),
      updateSettings: (bearer: string, body: unknown): Promise<ApiResponse> =>
        callApi(app, NOTIFICATION_SETTINGS, withBearer(bearer, jsonRequest('PUT', body))),
    },
  };
}

/** A task's watchers: list them, watch it, stop watching it. */
export function watcherCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const onTask = (taskId: string) => ({ path: { id: taskId } });
  return {
    list: (bearer: string, taskId: string) =>
      responseOf(
        client.GET('/v1/tasks/{id}/watchers', { params: onTask(taskId), headers: withAuthorization(bearer) }),
      ),
    watch: (bearer: string, taskId: string) =>
      responseOf(
        client.PUT('/v1/tasks/{id}/watch', { params: onTask(taskId), headers: withAuthorization(bearer) }),
      ),
    unwatch: (bearer: string, taskId: string) =>
      responseOf(
        client.DELETE('/v1/tasks/{id}/watch', { params: onTask(taskId), headers: withAuthorization(bearer) }),
      ),
  };
}

export interface StoredNotification extends Record<string, unknown> {
  id: string;
  user_id: string;
  workspace_id: string;
  task_id: string | null;
  type: string;
  actor_id: string | null;
  comment_id: string | null;
  change_count: number;
  read_at: Date | null;
  archived_at: Date | null;
}

/** Notifications as the database holds them, oldest first: `where` a condition on `n`, with `params`. */
export function storedNotifications(
  db: Database,
  where: string,
  params: unknown[],
): Promise<StoredNotification[]> {
  return asService(db, (sql) =>
    sql.query<StoredNotification>(
      `select id, user_id, workspace_id, task_id, type, actor_id, comment_id, change_count, read_at, archived_at
       from public.notifications n where ${where} order by created_at, id`,
      params,
    ),
  );
}

/** The user ids that watch the task, as the database holds them, sorted. */
export async function storedWatchers(db: Database, taskId: string): Promise<string[]> {
  const rows = await asService(db, (sql) =>
    sql.query<{ user_id: string }>(
      'select user_id from public.task_watchers where task_id = $1 order by user_id',
      [taskId],
    ),
  );
  return rows.map((row) => row.user_id);
}
