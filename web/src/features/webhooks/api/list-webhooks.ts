import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { everyPage, MAX_PAGE_SIZE } from '../../../lib/api/every-page.ts';
import { webhookKeys } from './query-keys.ts';

/** GET /v1/workspaces/{slug}/webhooks, every page; only owners and admins may ask. */
export function useWebhooks(slug: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: webhookKeys.list({ slug }),
    queryFn: ({ signal }) =>
      everyPage((cursor) =>
        unwrap(
          api.GET('/v1/workspaces/{slug}/webhooks', {
            params: { path: { slug }, query: { limit: MAX_PAGE_SIZE, cursor } },
            signal,
          }),
        ),
      ),
    enabled,
  });
}
