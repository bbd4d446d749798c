/**
 * The routes only the scheduler calls (POST /v1/internal/notification-mail), with the project's secret key
 * as the bearer (docs/decisions/0048): checked here, before any body is read, as authentication checks a
 * person's credential on every other route. The key is compared hashed, in time that does not depend on
 * where it differs. A person's token, an API token or no key at all is `401`.
 */
import { createMiddleware } from 'hono/factory';
import { isSameSecret } from '../../_shared/auth/same-secret.ts';
import { invalidCredentials, missingCredentials } from '../../_shared/auth/unauthenticated.ts';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';

const ONLY_THE_SCHEDULER = "Only the scheduler may call this, with the project's secret key.";

export const serviceKey = (serviceRoutes: readonly RouteName[], key: string | undefined) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!serviceRoutes.includes(routeOf(c) ?? '')) return next();
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) throw missingCredentials(ONLY_THE_SCHEDULER);
    if (!key || !(await isSameSecret(bearer, key))) throw invalidCredentials(ONLY_THE_SCHEDULER);
    await next();
  });
