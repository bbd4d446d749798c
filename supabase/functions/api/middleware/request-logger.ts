/**
 * One log line per request, written when the answer is known. It names the request and, once
 * authenticated, the caller's user id; never its headers, body or query string, where credentials and
 * secrets travel.
 */
import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../_shared/logger.ts';
import type { AppEnv } from '../app-env.ts';

export const requestLogger = (logger: Logger) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    logger[status >= 500 ? 'error' : 'info']('request', {
      request_id: c.var.requestId,
      method: c.req.method,
      path: withoutSecrets(c.req.path),
      status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      user_id: c.var.principal?.user_id,
    });
  });

/**
 * The path with the secrets some paths carry masked: an invitation's token, in its preview
 * (`/v1/invitations/{token}`) and its acceptance (`/v1/invitations/{token}/accept`), and a mail's
 * unsubscribe token (`/v1/notification-unsubscribe/{token}`). A workspace's own invitations
 * (`/v1/workspaces/{slug}/invitations/{id}`) are addressed by id, which is no secret.
 */
export function withoutSecrets(path: string): string {
  return path.replace(/(\/v1\/(?:invitations|notification-unsubscribe)\/)[^/]+/g, '$1{token}');
}
