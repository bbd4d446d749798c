/**
 * What a caller with a personal API token may do (docs/product.md#roles): act as its user, but never manage
 * tokens (the routes named in `sessionOnlyRoutes` answer `403 forbidden`), and with a `read` token call safe
 * methods only (`403 insufficient_scope`). Runs right after authentication, before any body is read.
 */
import { createMiddleware } from 'hono/factory';
import { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export const tokenAccess = (sessionOnlyRoutes: readonly RouteName[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = c.var.principal?.api_token;
    if (token) {
      const route = routeOf(c);
      if (route !== undefined && sessionOnlyRoutes.includes(route)) {
        throw new AppError(
          'forbidden',
          'API tokens cannot manage API tokens. Sign in to Tasklane to create, list or revoke them.',
        );
      }
      if (token.scope === 'read' && !SAFE_METHODS.has(c.req.method)) {
        throw new AppError(
          'insufficient_scope',
          `This API token has the read scope, so it can only read (GET, HEAD); ${c.req.method} needs a token with the write scope.`,
        );
      }
    }
    await next();
  });
