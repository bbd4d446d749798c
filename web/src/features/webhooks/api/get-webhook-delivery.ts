import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookDeliveryKeys } from './query-keys.ts';

interface DeliveryRef {
  slug: string;
  webhookId: string;
  deliveryId: string;
}

/** GET …/deliveries/{delivery_id}: the request as sent and the response it got. */
export function useWebhookDelivery({ slug, webhookId, deliveryId }: DeliveryRef) {
  return useQuery({
    queryKey: webhookDeliveryKeys.detail(deliveryId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}', {
          params: { path: { slug, id: webhookId, delivery_id: deliveryId } },
          signal,
        }),
      ),
    // A delivery being sent (after a redelivery, say) is read again until it has its answer.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2_000 : false),
  });
}
