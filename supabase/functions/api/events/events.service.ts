/**
 * Events: a task's activity and a workspace's change feed, read by any member (docs/product.md#roles: viewers
 * read the activity too). Both read in commit order (event-order.ts); the feed's position always moves
 * forward, so a client can poll it (openapi.yaml, listWorkspaceEvents).
 */
import type { Event } from '../../_shared/api-types.ts';
import type { Database } from '../../_shared/db.ts';
import { toEvent } from '../../_shared/events/event-object.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { readInTaskWorkspace } from '../tasks/task-access.ts';
import { readInWorkspace } from '../workspaces/workspace-access.ts';
import type { ActivitySeqKey, FeedPositionKey } from './event-order.ts';
import type { EventTypeFilter } from './event-types.ts';
import { selectFeed, selectTaskEvents } from './events.queries.ts';

export function listTaskEvents(
  db: Database,
  principal: Principal,
  taskId: string,
  page: PageRequest<ActivitySeqKey>,
): Promise<Page<Event>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInTaskWorkspace(sql, principal, taskId, (last) =>
      selectTaskEvents(last, taskId, page),
    );
    return pageOf(found, page, toEvent);
  });
}

export interface FeedRequest {
  limit: number;
  after?: FeedPositionKey | undefined;
  /** Where `after` was sent, as errors name it: `query.after` unless said otherwise. */
  afterPath?: string;
  types?: EventTypeFilter | undefined;
}

/** A page of the feed, and where to read on: never null, since the feed only ever grows. */
export interface FeedPage {
  data: Event[];
  position: FeedPositionKey;
  /** Whether events are already waiting after `position`. */
  hasMore: boolean;
}

export function listWorkspaceEvents(
  db: Database,
  principal: Principal,
  slug: string,
  request: FeedRequest,
): Promise<FeedPage> {
  return db.asCaller(principal, async (sql) => {
    // The page is read with the workspace, from the cursor's seq; a cursor of another feed then throws it away.
    const cursorSeq = request.after?.[1] ?? 0;
    const { access, found } = await readInWorkspace(sql, principal, slug, (last) =>
      selectFeed(last, slug, cursorSeq, request.types, request.limit),
    );
    const { workspaceId } = access;
    const afterPath = request.afterPath ?? 'query.after';
    const afterSeq = request.after ? seqInFeedOf(workspaceId, request.after, afterPath) : 0;
    const { events, head } = found;
    const shown = events.slice(0, request.limit);
    const hasMore = events.length > request.limit;
    // A full page stops at its last event; otherwise the reader has seen everything up to the head,
    // including the events `types` left out.
    const lastShown = shown.at(-1);
    const seq = hasMore && lastShown ? Number(lastShown.seq) : Math.max(afterSeq, head);
    return { data: shown.map(toEvent), position: [workspaceId, seq], hasMore };
  });
}

/** The seq a cursor holds, if this workspace's feed issued it; seqs of one feed mean nothing in another. */
function seqInFeedOf(workspaceId: string, [cursorWorkspaceId, seq]: FeedPositionKey, path: string): number {
  if (cursorWorkspaceId === workspaceId) return seq;
  const message = "is not a cursor this feed issued: it comes from another workspace's feed";
  const where =
    path === 'query.after' ? 'Query parameter "after"' : `The ${path.slice('header.'.length)} header`;
  throw new AppError('bad_request', `${where}: ${message}.`, {
    errors: [{ path, code: 'invalid', message }],
  });
}
