import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookKeys } from './query-keys.ts';

/** POST …/webhooks/{id}/rotate-secret: the answer holds the new secret, this once. */
export function useRotateWebhookSecret(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.POST('/v1/workspaces/{slug}/webhooks/{id}/rotate-secret', { params: { path: { slug, id } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list({ slug }) }),
  });
}
