/**
 * POST /v1/internal/notification-mail — the scheduler's call (its secret key checked by
 * middleware/service-key.ts), that sends
 * the notification mail due now (every minute: pg_cron on hosted, the stand-in's scheduler locally).
 * POST /v1/notification-unsubscribe/{token} — a mail's one-click unsubscribe (RFC 8058), signed-out.
 */
import { Hono } from 'hono';
import { AppError } from '../../_shared/errors.ts';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { apiUrlOf } from '../http/api-url.ts';
import { shapedPathParam } from '../http/path-params.ts';
import { sendNotificationMail } from './notification-mail.service.ts';
import { invalidUnsubscribeLink, unsubscribe } from './unsubscribe.service.ts';
import { UnsubscribeTokenShape } from './unsubscribe-token.ts';

export const notificationMailRoutes = (
  deps: Pick<AppDeps, 'db' | 'mailer' | 'logger' | 'appUrl' | 'apiUrl' | 'notificationMailBatchSeconds'>,
) =>
  new Hono<AppEnv>()
    .post('/internal/notification-mail', async (c) => {
      if (!deps.mailer || !deps.appUrl) {
        throw new AppError('unavailable', 'This instance has no mailer or no APP_URL to write links with.');
      }
      const run = await sendNotificationMail(
        {
          db: deps.db,
          mailer: deps.mailer,
          logger: deps.logger,
          appUrl: deps.appUrl,
          apiUrl: apiUrlOf(c, deps.apiUrl),
          ...(deps.notificationMailBatchSeconds === undefined
            ? {}
            : { batchWindowSeconds: deps.notificationMailBatchSeconds }),
        },
        c.var.requestId,
      );
      return c.json({ object: 'notification_mail_run', ...run }, 200);
    })
    .post('/notification-unsubscribe/:token', async (c) => {
      const token = shapedPathParam(c, 'token', UnsubscribeTokenShape, invalidUnsubscribeLink);
      return c.json(await unsubscribe(deps.db, token), 200);
    });
