/**
 * Lists, the HTTP side (docs/product.md#api-conventions, docs/decisions/0006): the `limit` and `cursor` query
 * parameters, and the answer `{ object: "list", data, next_cursor }` with a `Link: <…>; rel="next"` header. A
 * list route declares both parameters in its query schema and answers the service's page in one call:
 *
 *   const ListThingsQuery = z.object({ ...pageParameters(CreatedAtIdKey), q: … });
 *   .get('/things', queryOf(ListThingsQuery), async (c) => {
 *     const { limit, cursor, q } = c.var.query;
 *     return listResponse(c, await listThings(db, c.var.principal, { limit, cursor }, q));
 *   })
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { PAGE_SIZE } from '../../_shared/limits.ts';
import type { Page, SortKey } from '../../_shared/pages.ts';
import type { AppEnv } from '../app-env.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** `?limit=`: a whole number from 1 to PAGE_SIZE.max, PAGE_SIZE.default when absent. */
export const LimitParameter = z
  .string()
  .regex(/^[0-9]+$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().min(1, 'must be at least 1').max(PAGE_SIZE.max, `must be at most ${PAGE_SIZE.max}`))
  .default(PAGE_SIZE.default);

/** `?cursor=`: a `next_cursor` this list answered, decoded to the sort key it carries. */
export function cursorParameter<Key extends SortKey>(keySchema: z.ZodType<Key>) {
  return z.string().transform((cursor, context): Key => {
    const decoded = decodeCursor(cursor, keySchema);
    if (decoded.ok) return decoded.key;
    context.issues.push({ code: 'custom', message: decoded.reason, input: cursor });
    return z.NEVER;
  });
}

/** The query parameters of every list, for a list sorted by `keySchema`. */
export function pageParameters<Key extends SortKey>(keySchema: z.ZodType<Key>) {
  return { limit: LimitParameter, cursor: cursorParameter(keySchema).optional() };
}

export interface List<Item> {
  object: 'list';
  data: Item[];
  next_cursor: string | null;
}

/** Answers a page as a list, with `Link rel="next"` when there is a next page. */
export function listResponse<Item, E extends AppEnv>(c: Context<E>, page: Page<Item>): Response {
  const nextCursor = page.next && encodeCursor(page.next);
  if (nextCursor) c.header('Link', `<${nextPageReference(c.req.url, nextCursor)}>; rel="next"`);
  const list: List<Item> = { object: 'list', data: page.data, next_cursor: nextCursor };
  return c.json(list, 200);
}

/**
 * The next page's address relative to the request's own (RFC 3986 §5.2.2: a reference of just a query
 * keeps the path): the function cannot know under which prefix the gateway serves it, the client can.
 * Every other query parameter is kept as sent.
 */
export function nextPageReference(requestUrl: string, cursor: string): string {
  const query = new URL(requestUrl).searchParams;
  query.set('cursor', cursor);
  return `?${query.toString()}`;
}
