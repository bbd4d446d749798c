import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookDeliveryKeys } from './query-keys.ts';

/** POST …/webhooks/{id}/test: queues a ping; the delivery log is read again to show it. */
export function useTestWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/v1/workspaces/{slug}/webhooks/{id}/test', { params: { path: { slug, id } } })),
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: webhookDeliveryKeys.list({ slug, webhookId: id }) }),
  });
}
