/**
 * Headers on every answer, success and problem alike. `X-Content-Type-Options: nosniff`, so that no
 * browser takes a JSON body for something it would render or run. `Cache-Control: no-store`, so that no
 * browser or shared cache keeps a caller's data; ETags still work for a client that keeps an answer
 * itself and revalidates it with If-None-Match. A route that sets its own Cache-Control keeps it (the
 * idempotency middleware, inside this one, reads a route's `no-store` as "never record").
 * `cacheableRoutes` are left to caches when they succeed: public answers, the same for everyone.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';

export const securityHeaders = (cacheableRoutes: readonly RouteName[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    if (c.res.headers.has('Cache-Control')) return;
    const route = routeOf(c);
    if (c.res.ok && route !== undefined && cacheableRoutes.includes(route)) return;
    c.header('Cache-Control', 'no-store');
  });
