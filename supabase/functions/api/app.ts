/**
 * createApp builds the API: the one middleware stack, the feature routes under /api/v1, and the error
 * answers. index.ts serves it on Deno; tests call it in-process with `app.request()`.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from './app-env.ts';
import { healthRoutes } from './health/health.routes.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { meRoutes } from './me/me.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { authenticate, type RouteName } from './middleware/authenticate.ts';
import { bodyGuard } from './middleware/body-guard.ts';
import { corsFor } from './middleware/cors.ts';
import { methodNotAllowedFor } from './middleware/method-not-allowed.ts';
import { requestIds } from './middleware/request-id.ts';
import { requestLogger } from './middleware/request-logger.ts';

/** The routes anyone may call without credentials. Every other route requires a verified caller. */
export const PUBLIC_ROUTES: readonly RouteName[] = ['GET /api/v1/health', 'GET /api/v1/meta/limits'];

/**
 * @param extraRoutes a test seam: routes mounted under /api/v1 behind the same stack (so they require
 *   credentials), for behaviour no real route exercises yet. Production passes nothing.
 */
export function createApp(deps: AppDeps, extraRoutes?: Hono<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestIds());
  app.use(requestLogger(deps.logger));
  app.use(corsFor(deps.allowedOrigins));
  app.use(methodNotAllowedFor(app));
  // Seam: the rate limit goes here, before authentication and before any body is read.
  app.use(authenticate(deps.credentials, PUBLIC_ROUTES));
  app.use(bodyGuard());
  // Seam: idempotency goes here, after the body guard, because it fingerprints the parsed body.

  const api = app.basePath('/api');
  api.route('/v1', healthRoutes(deps));
  api.route('/v1', metaRoutes());
  api.route('/v1', meRoutes(deps));
  if (extraRoutes) api.route('/v1', extraRoutes);

  app.notFound(notFoundHandler);
  app.onError(errorHandler(deps.logger));
  return app;
}
