/** /v1/me/notifications and /v1/me/notification-settings — what the signed-in person is told, and how. */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { KeyTimestamp } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import {
  MarkAllNotificationsReadBodySchema,
  NotificationFilterParameters,
  UpdateNotificationBodySchema,
  UpdateNotificationSettingsBodySchema,
  UpdateNotificationsBodySchema,
} from './notifications.schemas.ts';
import {
  countUnreadNotifications,
  getNotificationSettings,
  listNotifications,
  markAllNotificationsRead,
  notificationNotFound,
  updateNotification,
  updateNotifications,
  updateNotificationSettings,
} from './notifications.service.ts';

/** The list's sort key: when the notification last changed, then its id. */
const UpdatedAtIdKey = z.tuple([KeyTimestamp, z.uuid()]);

const ListNotificationsQuery = z.object({
  ...pageParameters(UpdatedAtIdKey),
  ...NotificationFilterParameters,
});

/** The `{id}` of /v1/me/notifications/{id}; anything but a UUID names no notification. */
const notificationIdOf = (c: Context<AuthenticatedEnv>): string =>
  shapedPathParam(c, 'id', UuidShape, notificationNotFound);

export const notificationsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .get('/me/notifications', queryOf(ListNotificationsQuery), async (c) => {
      const { limit, cursor, ...filters } = c.var.query;
      return listResponse(c, await listNotifications(db, c.var.principal, filters, { limit, cursor }));
    })
    .get('/me/notifications/unread-count', async (c) => {
      return c.json(await countUnreadNotifications(db, c.var.principal), 200);
    })
    .post('/me/notifications/batch', async (c) => {
      const { ids, ...marks } = await readJsonBody(c, UpdateNotificationsBodySchema);
      return c.json(await updateNotifications(db, c.var.principal, ids, marks), 200);
    })
    .post('/me/notifications/read-all', async (c) => {
      const { workspace } = await readJsonBody(c, MarkAllNotificationsReadBodySchema);
      return c.json(await markAllNotificationsRead(db, c.var.principal, workspace), 200);
    })
    .patch('/me/notifications/:id', async (c) => {
      const id = notificationIdOf(c);
      const marks = await readMergePatch(c, UpdateNotificationBodySchema);
      return c.json(await updateNotification(db, c.var.principal, id, marks), 200);
    })
    .get('/me/notification-settings', async (c) => {
      return c.json(await getNotificationSettings(db, c.var.principal), 200);
    })
    .put('/me/notification-settings', async (c) => {
      const body = await readJsonBody(c, UpdateNotificationSettingsBodySchema);
      return c.json(await updateNotificationSettings(db, c.var.principal, body), 200);
    });
