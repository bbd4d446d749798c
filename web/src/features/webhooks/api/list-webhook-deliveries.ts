import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookDeliveryKeys } from './query-keys.ts';

type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookDeliveryList = components['schemas']['WebhookDeliveryList'];

/** The log is read again this often while it is shown: deliveries are sent and retried in the background. */
const REFRESH_MS = 3_000;

/** GET …/webhooks/{id}/deliveries, newest first, page by page through the cursor. */
export function webhookDeliveriesQueryOptions(slug: string, webhookId: string) {
  return infiniteQueryOptions({
    queryKey: webhookDeliveryKeys.list({ slug, webhookId }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: WebhookDeliveryList) => page.next_cursor ?? undefined,
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET('/v1/workspaces/{slug}/webhooks/{id}/deliveries', {
          params: { path: { slug, id: webhookId }, query: { cursor: pageParam } },
          signal,
        }),
      ),
    refetchInterval: REFRESH_MS,
  });
}

export function useWebhookDeliveries(slug: string, webhookId: string) {
  return useInfiniteQuery(webhookDeliveriesQueryOptions(slug, webhookId));
}

/** The deliveries of every page read so far, newest first. */
export function deliveriesOf(pages: InfiniteData<WebhookDeliveryList> | undefined): WebhookDelivery[] {
  return pages?.pages.flatMap((page) => page.data) ?? [];
}
