/**
 * Which requests go on without a verified caller: those no route takes (they end in a 404), the public
 * routes, and a route whose credentials are optional when the request sends none. A request that does
 * send credentials to such a route has them checked as anywhere else: a bad one is refused, not ignored,
 * since the answer depends on who asks.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';

export type SignedOutRequests = (c: Context<AppEnv>) => boolean;

export function signedOutRequests(
  publicRoutes: readonly RouteName[],
  optionalCredentialRoutes: readonly RouteName[],
): SignedOutRequests {
  return (c) => {
    const route = routeOf(c);
    if (route === undefined || publicRoutes.includes(route)) return true;
    return optionalCredentialRoutes.includes(route) && c.req.header('authorization') === undefined;
  };
}
