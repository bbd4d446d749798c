/**
 * The gate for request bodies: JSON only (415), at most 1 MiB (413), well-formed and at most
 * JSON_BODY_MAX_DEPTH levels deep (400), before the idempotency fingerprint walks it. A request with
 * an empty body passes through; routes then read the parsed body with `readJsonBody`. The routes named in
 * `formBodyRoutes` take a form instead (RFC 8058's one-click unsubscribe); only its size is checked,
 * and nothing reads it. The routes named in `fileBodyRoutes` take a file: `multipart/form-data` of at most
 * FILE_BODY_MAX_BYTES, which the route reads itself.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import { AppError } from '../../_shared/errors.ts';
import { FILE_BODY_MAX_BYTES, JSON_BODY_MAX_BYTES } from '../../_shared/limits.ts';
import type { AppEnv } from '../app-env.ts';
import { routeOf, type RouteName } from './authenticate.ts';
import { parseJson, refuseDeepNesting } from '../http/json-body.ts';

// application/json, and structured-syntax JSON types such as application/merge-patch+json (RFC 7396).
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

const limitTo = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError('payload_too_large', `The body is larger than ${maxSize} bytes.`);
    },
  });

export const bodyGuard = (
  formBodyRoutes: readonly RouteName[] = [],
  fileBodyRoutes: readonly RouteName[] = [],
) => {
  const limitSize = limitTo(JSON_BODY_MAX_BYTES);
  const limitFileSize = limitTo(FILE_BODY_MAX_BYTES);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.raw.body === null || !isRouted(c)) return next();
    if (fileBodyRoutes.includes(routeOf(c) ?? '')) {
      if (!isMultipart(c.req.header('content-type'))) {
        throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data.');
      }
      return limitFileSize(c, next);
    }
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

const mediaTypeOf = (contentType: string | undefined): string =>
  contentType?.split(';')[0]?.trim().toLowerCase() ?? '';

function isForm(contentType: string | undefined): boolean {
  const mediaType = mediaTypeOf(contentType);
  return mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data';
}

function isMultipart(contentType: string | undefined): boolean {
  return mediaTypeOf(contentType) === 'multipart/form-data';
}

function isJson(contentType: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test(mediaTypeOf(contentType));
}
