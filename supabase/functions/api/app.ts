/**
 * createApp builds the API: the one middleware stack, the feature routes under /api/v1, and the error
 * answers. index.ts serves it on Deno; tests call it in-process with `app.request()`.
 */
import { Hono, type Context } from 'hono';
import type { StatementBesideCheck } from '../_shared/auth/credential-verifier.ts';
import { DEFAULT_TRUSTED_PROXY_HOPS, RATE_LIMIT_PER_MINUTE } from '../_shared/limits.ts';
import type { AppDeps, AppEnv } from './app-env.ts';
import { attachmentsRoutes } from './attachments/attachments.routes.ts';
import { avatarsRoutes } from './avatars/avatars.routes.ts';
import { commentsRoutes } from './comments/comments.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { exportBudgetOf } from './export/export-budget.ts';
import { exportRoutes } from './export/export.routes.ts';
import { importsRoutes } from './imports/imports.routes.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { noQueryParameters } from './http/query-params.ts';
import { invitationPreviewRoutes, invitationsRoutes } from './invitations/invitations.routes.ts';
import { labelsRoutes } from './labels/labels.routes.ts';
import { meRoutes } from './me/me.routes.ts';
import { notificationMailRoutes } from './notification-mail/notification-mail.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { membersRoutes } from './members/members.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { authenticate, routeOf, type RouteName } from './middleware/authenticate.ts';
import { bodyGuard } from './middleware/body-guard.ts';
import { corsFor } from './middleware/cors.ts';
import { idempotency } from './middleware/idempotency.ts';
import { keyClaimOf } from './idempotency/key-claim.ts';
import { methodNotAllowedFor } from './middleware/method-not-allowed.ts';
import {
  limitByIp,
  limitByPrincipal,
  WINDOW_SECONDS,
  type RateLimitOptions,
} from './middleware/rate-limit.ts';
import { requestIds } from './middleware/request-id.ts';
import { requestLogger } from './middleware/request-logger.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { serviceKey } from './middleware/service-key.ts';
import { signedOutRequests } from './middleware/signed-out-requests.ts';
import { tokenAccess } from './middleware/token-access.ts';
import { wakeWebhookDispatcher } from './middleware/wake-webhook-dispatcher.ts';
import { projectsRoutes } from './projects/projects.routes.ts';
import { postgresRateLimiter } from './rate-limits/rate-limiter.ts';
import { tasksRoutes } from './tasks/tasks.routes.ts';
import { tokensRoutes } from './tokens/tokens.routes.ts';
import { watchersRoutes } from './watchers/watchers.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { workspacesRoutes } from './workspaces/workspaces.routes.ts';

/** The routes anyone may call without credentials. Every other route requires a verified caller. */
export const PUBLIC_ROUTES: readonly RouteName[] = [
  'GET /api/v1/health',
  'GET /api/v1/meta/limits',
  // The signed token is the authority: one click from a mail client, signed out (RFC 8058).
  'POST /api/v1/notification-unsubscribe/:token',
];

/** The routes only the scheduler calls, with the project's secret key (middleware/service-key.ts). */
export const SERVICE_ROUTES: readonly RouteName[] = ['POST /api/v1/internal/notification-mail'];

/** The routes whose body is a form, not JSON: a mail client's one-click unsubscribe (RFC 8058). */
export const FORM_BODY_ROUTES: readonly RouteName[] = ['POST /api/v1/notification-unsubscribe/:token'];

/** The routes whose body is a file, sent as multipart/form-data: imports. */
export const FILE_BODY_ROUTES: readonly RouteName[] = ['POST /api/v1/workspaces/:slug/imports'];

/**
 * The routes that take credentials but do not need them: without any, the caller is signed out and the
 * route answers what anyone may know (the invitation page, before its invitee has an account).
 */
export const OPTIONAL_CREDENTIAL_ROUTES: readonly RouteName[] = ['GET /api/v1/invitations/:token'];

/**
 * The routes whose answers caches may keep: the same constants for everyone. Every other answer is
 * `no-store`, health too, since it reports the live state.
 */
export const CACHEABLE_ROUTES: readonly RouteName[] = ['GET /api/v1/meta/limits'];

/** The routes only a signed-in session may call: personal API tokens cannot manage API tokens. */
export const SESSION_ONLY_ROUTES: readonly RouteName[] = [
  'GET /api/v1/me/tokens',
  'POST /api/v1/me/tokens',
  'GET /api/v1/me/tokens/:id',
  'DELETE /api/v1/me/tokens/:id',
];

/**
 * @param extraRoutes a test seam: routes mounted under /api/v1 behind the same stack (so they require
 *   credentials), for behaviour no real route exercises yet. Production passes nothing.
 */
export function createApp(deps: AppDeps, extraRoutes?: Hono<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestIds());
  app.use(requestLogger(deps.logger));
  // Outside everything else, so that it sees every answer as sent, the errors' and replays' included.
  app.use(securityHeaders(CACHEABLE_ROUTES));
  app.use(corsFor(deps.allowedOrigins));
  // Rate limits: per IP around authentication (so 405s and refused credentials count too), per user or
  // API token right after it; both before any body is read.
  const rateLimits = rateLimitOptions(deps);
  const isSignedOut = signedOutRequests([...PUBLIC_ROUTES, ...SERVICE_ROUTES], OPTIONAL_CREDENTIAL_ROUTES);
  app.use(limitByIp(rateLimits, isSignedOut));
  app.use(methodNotAllowedFor(app));
  app.use(serviceKey(SERVICE_ROUTES, deps.serviceKey));
  app.use(
    authenticate(
      deps.credentials,
      isSignedOut,
      WINDOW_SECONDS,
      rateLimits.limiter.handedBack,
      statementsBesideCheck(deps),
    ),
  );
  app.use(limitByPrincipal(rateLimits));
  app.use(tokenAccess(SESSION_ONLY_ROUTES));
  app.use(bodyGuard(FORM_BODY_ROUTES, FILE_BODY_ROUTES));
  // Outside the idempotency transaction: it wakes the dispatcher once the request's writes committed.
  app.use(wakeWebhookDispatcher(deps.wakeWebhookDispatcher));
  // After the body guard, because it fingerprints the parsed body; the route's queries join its transaction.
  app.use(idempotency(deps.db));
  // Where each route used to check its query first: inside the idempotency transaction, before the handler.
  app.use(noQueryParameters());

  const api = app.basePath('/api');
  api.route('/v1', healthRoutes(deps));
  api.route('/v1', metaRoutes());
  api.route('/v1', meRoutes(deps));
  api.route('/v1', avatarsRoutes(deps));
  api.route('/v1', tokensRoutes(deps));
  api.route('/v1', notificationsRoutes(deps));
  api.route('/v1', notificationMailRoutes(deps));
  api.route('/v1', workspacesRoutes(deps));
  api.route('/v1', membersRoutes(deps));
  api.route('/v1', invitationsRoutes(deps));
  api.route('/v1', invitationPreviewRoutes(deps));
  api.route('/v1', projectsRoutes(deps));
  api.route('/v1', labelsRoutes(deps));
  api.route('/v1', tasksRoutes(deps));
  api.route('/v1', eventsRoutes(deps));
  api.route('/v1', commentsRoutes(deps));
  api.route('/v1', watchersRoutes(deps));
  api.route('/v1', webhooksRoutes(deps));
  api.route('/v1', attachmentsRoutes(deps));
  api.route('/v1', exportRoutes(deps));
  api.route('/v1', importsRoutes(deps));
  if (extraRoutes) api.route('/v1', extraRoutes);

  app.notFound(notFoundHandler);
  app.onError(errorHandler(deps.logger));
  return app;
}

/**
 * The service statements a request sends with its credential's check (docs/decisions/0016): an
 * Idempotency-Key's claim, an export's budget. Each is put on `c.var` for the part that takes it over.
 */
function statementsBesideCheck(deps: AppDeps): (c: Context<AppEnv>) => StatementBesideCheck[] {
  return (c) => {
    const alongside: StatementBesideCheck[] = [];
    const claim = keyClaimOf(deps.db, c.req.method, c.req.header('idempotency-key'));
    if (claim) {
      c.set('idempotencyClaim', claim);
      alongside.push(claim);
    }
    const budget = exportBudgetOf(deps, c.req.method, routeOf(c), c.req.path);
    if (budget) {
      c.set('exportBudget', budget);
      alongside.push(budget);
    }
    return alongside;
  };
}

function rateLimitOptions(deps: AppDeps): RateLimitOptions {
  return {
    limiter: postgresRateLimiter(deps.db, deps.logger),
    limits: deps.rateLimits ?? RATE_LIMIT_PER_MINUTE,
    connectionAddress: deps.connectionAddress ?? (() => undefined),
    trustedProxyHops: deps.trustedProxyHops ?? DEFAULT_TRUSTED_PROXY_HOPS,
    logger: deps.logger,
  };
}
