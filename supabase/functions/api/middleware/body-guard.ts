/**
 * The gate for request bodies: JSON only (415), at most 1 MiB (413), well-formed and at most
 * JSON_BODY_MAX_DEPTH levels deep (400), before the idempotency fingerprint walks it. A request with
 * an empty body passes through; routes then read the parsed body with `readJsonBody`. The routes named in
 * `formBodyRoutes` take a form instead (RFC 8058's one-click unsubscribe); only its size is checked,
 * and nothing reads it.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import { AppError } from '../../_shared/errors.ts';
import { JSON_BODY_MAX_BYTES } from '../../_shared/limits.ts';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';
import { parseJson, refuseDeepNesting } from '../http/json-body.ts';

// application/json, and structured-syntax JSON types such as application/merge-patch+json (RFC 7396).
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

export const bodyGuard = (formBodyRoutes: readonly RouteName[] = []) => {
  const limitSize = bodyLimit({
    maxSize: JSON_BODY_MAX_BYTES,
    onError: () => {
      throw new AppError('payload_too_large', `The body is larger than ${JSON_BODY_MAX_BYTES} bytes.`);
    },
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.raw.body === null || !isRouted(c)) return next();
    return limitSize(c, async () => {
      // Read rather than trust headers: Deno gives even a bodiless DELETE a (empty) body stream.
      if ((await c.req.text()) === '') return next();
      if (isForm(c.req.header('content-type')) && formBodyRoutes.includes(routeOf(c) ?? '')) return next();
      if (!isJson(c.req.header('content-type'))) throw new AppError('unsupported_media_type');
      refuseDeepNesting(await parseJson(c));
      await next();
    });
  });
};

/** A request no route takes gets its 404 or 405, not a complaint about its body. */
function isRouted(c: Context<AppEnv>): boolean {
  return matchedRoutes(c).some((route) => route.method !== 'ALL');
}

function isForm(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data';
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return JSON_MEDIA_TYPE.test(mediaType);
}
