/** /v1/tasks/{id}/events (a task's activity) and /v1/workspaces/{slug}/events (the change feed). */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EventFeed } from '../../_shared/api-types.ts';
import { AppError } from '../../_shared/errors.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { encodeCursor } from '../http/cursor.ts';
import { cursorParameter, LimitParameter, listResponse, pageParameters } from '../http/pagination.ts';
import { toFieldErrors } from '../http/field-errors.ts';
import { queryOf } from '../http/query-params.ts';
import { ActivitySeqKey, FeedPositionKey } from './event-order.ts';
import { EventTypesParameter } from './event-types.ts';
import { taskIdOf } from '../tasks/task-access.ts';
import { listTaskEvents, listWorkspaceEvents, type FeedPage } from './events.service.ts';

const TaskEventsQuery = z.object(pageParameters(ActivitySeqKey));

const FeedQuery = z.object({
  limit: LimitParameter,
  after: cursorParameter(FeedPositionKey).optional(),
  types: EventTypesParameter.optional(),
});

export const eventsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .get('/tasks/:id/events', queryOf(TaskEventsQuery), async (c) => {
      const taskId = taskIdOf(c);
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listTaskEvents(db, c.var.principal, taskId, { limit, cursor }));
    })
    .get('/workspaces/:slug/events', queryOf(FeedQuery), async (c) => {
      const { limit, types, after } = c.var.query;
      const inHeader = feedAfterHeader(c, after !== undefined);
      const request = inHeader ? { limit, types, after: inHeader, afterPath: FEED_AFTER_PATH } : c.var.query;
      return feedResponse(c, await listWorkspaceEvents(db, c.var.principal, c.req.param('slug'), request));
    });

const FEED_AFTER = 'Feed-After';
const FEED_AFTER_PATH = `header.${FEED_AFTER.toLowerCase()}`;
const FeedAfterHeader = cursorParameter(FeedPositionKey);

/**
 * The cursor sent in the Feed-After header, which stands for `after` so that a browser following the
 * feed asks for the same URL each time and reuses its CORS preflight (decision 0035). One or the other.
 */
function feedAfterHeader<E extends AuthenticatedEnv>(c: Context<E>, afterInQuery: boolean) {
  const value = c.req.header(FEED_AFTER);
  if (value === undefined) return undefined;
  if (afterInQuery) {
    const message = 'must not be sent with the query parameter after';
    throw new AppError('bad_request', `Send the cursor in after or in the ${FEED_AFTER} header, not both.`, {
      errors: [{ path: FEED_AFTER_PATH, code: 'invalid', message }],
    });
  }
  const result = FeedAfterHeader.safeParse(value);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error.issues, 'header', value);
  throw new AppError('bad_request', `The ${FEED_AFTER} header is not a cursor of this feed.`, {
    errors: errors.map((error) => ({ ...error, path: FEED_AFTER_PATH })),
  });
}

/**
 * The feed's answer: a list whose `next_cursor` is always set (the position to poll from), with
 * `has_more`, and `Link rel="next"` exactly when more events are waiting: a client that follows links
 * catches up and stops, instead of polling in a loop.
 */
function feedResponse<E extends AuthenticatedEnv>(c: Context<E>, page: FeedPage): Response {
  const nextCursor = encodeCursor(page.position);
  if (page.hasMore) {
    const query = new URL(c.req.url).searchParams;
    query.set('after', nextCursor);
    c.header('Link', `<?${query.toString()}>; rel="next"`);
  }
  const feed: EventFeed = {
    object: 'list',
    data: page.data,
    next_cursor: nextCursor,
    has_more: page.hasMore,
  };
  return c.json(feed, 200);
}
