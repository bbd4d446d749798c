/** /v1/tasks/{id}/events (a task's activity) and /v1/workspaces/{slug}/events (the change feed). */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EventFeed } from '../../_shared/api-types.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { encodeCursor } from '../http/cursor.ts';
import { cursorParameter, LimitParameter, listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { ActivitySeqKey, FeedPositionKey } from './event-order.ts';
import { EventTypesParameter } from './event-types.ts';
import { listTaskEvents, listWorkspaceEvents, taskNotFound, type FeedPage } from './events.service.ts';

const TaskEventsQuery = z.object(pageParameters(ActivitySeqKey));

const FeedQuery = z.object({
  limit: LimitParameter,
  after: cursorParameter(FeedPositionKey).optional(),
  types: EventTypesParameter.optional(),
});

export const eventsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .get('/tasks/:id/events', queryOf(TaskEventsQuery), async (c) => {
      const taskId = shapedPathParam(c, 'id', UuidShape, taskNotFound);
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listTaskEvents(db, c.var.principal, taskId, { limit, cursor }));
    })
    .get('/workspaces/:slug/events', queryOf(FeedQuery), async (c) => {
      const query = c.var.query;
      return feedResponse(c, await listWorkspaceEvents(db, c.var.principal, c.req.param('slug'), query));
    });

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
