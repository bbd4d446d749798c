import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { activityKeys } from './query-keys.ts';

type Event = components['schemas']['Event'];

/** The latest events of the feed, what is needed to word them, and where to read on from. */
export interface RecentActivity {
  /** Oldest first, at most `RECENT_EVENTS`. */
  events: Event[];
  /** Task keys by task id, from every task event read, for the comment events. */
  taskKeys: Record<string, string>;
  cursor: string | undefined;
  /** False when reading stopped at `MAX_PAGES` with more events still waiting. */
  caughtUp: boolean;
}

const RECENT_EVENTS = 20;
/** How far one read goes: the feed is oldest first, so the latest events are at its end. */
const MAX_PAGES = 50;

/**
 * GET /v1/workspaces/{slug}/events, followed to the present: the feed has no newest-first order, so the
 * first read pages through the 30 days it keeps, and each refetch reads on from the cursor it stopped at.
 */
export function recentActivityQueryOptions(slug: string) {
  return queryOptions({
    queryKey: activityKeys.list({ slug }),
    queryFn: async ({ client, queryKey, signal }): Promise<RecentActivity> => {
      const previous = client.getQueryData<RecentActivity>(queryKey);
      let events = previous?.events ?? [];
      let cursor = previous?.cursor;
      const taskKeys: Record<string, string> = { ...previous?.taskKeys };
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const feed = await unwrap(
          api.GET('/v1/workspaces/{slug}/events', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, after: cursor } },
            signal,
          }),
        );
        for (const event of feed.data)
          if (event.data.object === 'task') taskKeys[event.data.id] = event.data.key;
        events = [...events, ...feed.data].slice(-RECENT_EVENTS);
        cursor = feed.next_cursor;
        if (!feed.has_more) return { events, taskKeys, cursor, caughtUp: true };
      }
      return { events, taskKeys, cursor, caughtUp: false };
    },
  });
}

export function useRecentActivity(slug: string) {
  return useQuery(recentActivityQueryOptions(slug));
}
