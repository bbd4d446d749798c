import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';

export type WorkspaceEvent = components['schemas']['Event'];

/**
 * GET /v1/workspaces/{slug}/events with the cursor in `Feed-After`: one page of the change feed after it.
 * The URL stays the same from read to read, so the browser sends its CORS preflight once, not before
 * every read a live message starts (decision 0035).
 */
export function readEventsAfter(slug: string, after: string) {
  return unwrap(
    api.GET('/v1/workspaces/{slug}/events', {
      params: { path: { slug }, query: { limit: MAX_PAGE_SIZE }, header: { 'Feed-After': after } },
    }),
  );
}
