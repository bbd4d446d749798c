import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';

export type WorkspaceEvent = components['schemas']['Event'];

/** GET /v1/workspaces/{slug}/events?after=: one page of the change feed after a cursor. */
export function readEventsAfter(slug: string, after: string) {
  return unwrap(
    api.GET('/v1/workspaces/{slug}/events', {
      params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, after } },
    }),
  );
}
