import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { webhookKeys } from './query-keys.ts';

type CreateWebhook = components['schemas']['CreateWebhook'];

/** POST /v1/workspaces/{slug}/webhooks: the answer holds the secret, this once. */
export function useCreateWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhook) =>
      unwrap(api.POST('/v1/workspaces/{slug}/webhooks', { params: { path: { slug } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list({ slug }) }),
  });
}
