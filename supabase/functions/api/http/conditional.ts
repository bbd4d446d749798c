/**
 * Conditional requests (RFC 9110 §13), the HTTP side. A route answers a single resource with
 * `jsonWithETag` (its ETag, and `304 Not Modified` for a GET whose If-None-Match names the current
 * version), and hands a PATCH's or DELETE's `readIfMatch(c)` to its service:
 *
 *   .get('/things/:id', async (c) => jsonWithETag(c, await getThing(db, c.var.principal, id)))
 *   .patch('/things/:id', async (c) => {
 *     const changes = await readMergePatch(c, WritableThing);
 *     return jsonWithETag(c, await updateThing(db, c.var.principal, id, changes, readIfMatch(c)));
 *   })
 *
 * A request for a resource that does not exist is answered 404 whatever its conditions (§13.2.1).
 */
import type { Context } from 'hono';
import { AppError } from '../../_shared/errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import type { AppEnv } from '../app-env.ts';
import {
  ENTITY_TAG_FIELD_MAX_LENGTH,
  etagOf,
  parseEntityTagCondition,
  strongVersionsOf,
  weaklyMatches,
  type EntityTagCondition,
} from './entity-tags.ts';

type Header = 'If-Match' | 'If-None-Match';

/**
 * The versions `If-Match` allows a write to apply to: null (any) when the field is absent or `*`, else
 * the versions its strong tags name, possibly none (then only a 412 or 404 can follow). A malformed
 * field is `400 bad_request` rather than ignored, which would turn a careful write into a blind one.
 */
export function readIfMatch<E extends AppEnv>(c: Context<E>): ExpectedVersion {
  const condition = readCondition(c, 'If-Match');
  if (!condition || condition.any) return null;
  return strongVersionsOf(condition.tags);
}

/**
 * Answers a resource as JSON with `ETag: "<version>"`. For GET and HEAD, when If-None-Match names that
 * version (or is `*`), the answer is `304 Not Modified` with the ETag and no body.
 */
export function jsonWithETag<E extends AppEnv, T extends { version: number }>(
  c: Context<E>,
  resource: T,
  status: 200 | 201 = 200,
): Response {
  const etag = etagOf(resource.version);
  const noneMatch = isSafe(c.req.method) ? readCondition(c, 'If-None-Match') : undefined;
  if (noneMatch && weaklyMatches(noneMatch, resource.version)) return c.body(null, 304, { ETag: etag });
  return c.json(resource, status, { ETag: etag });
}

function readCondition<E extends AppEnv>(c: Context<E>, header: Header): EntityTagCondition | undefined {
  const value = c.req.header(header);
  if (value === undefined) return undefined;
  if (value.length > ENTITY_TAG_FIELD_MAX_LENGTH) {
    throw headerError(header, 'too long', {
      code: 'too_long',
      message: `must be at most ${ENTITY_TAG_FIELD_MAX_LENGTH} characters`,
    });
  }
  const condition = parseEntityTagCondition(value);
  if (condition) return condition;
  throw headerError(header, 'malformed', {
    code: 'invalid_format',
    message: 'must be * or a comma-separated list of entity tags such as "3" or W/"3"',
  });
}

function headerError(header: Header, what: string, error: { code: string; message: string }): AppError {
  return new AppError('bad_request', `The ${header} header is ${what}.`, {
    errors: [{ path: `header.${header.toLowerCase()}`, ...error }],
  });
}

function isSafe(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
