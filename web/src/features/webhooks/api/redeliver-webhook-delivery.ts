import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookDeliveryKeys } from './query-keys.ts';

/** POST …/deliveries/{delivery_id}/redeliver: sends it again (same `webhook-id`); the log is read again. */
export function useRedeliverWebhookDelivery(slug: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { slug, id: webhookId, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: (_delivery, deliveryId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookDeliveryKeys.list({ slug, webhookId }) }),
        queryClient.invalidateQueries({ queryKey: webhookDeliveryKeys.detail(deliveryId) }),
      ]),
  });
}
