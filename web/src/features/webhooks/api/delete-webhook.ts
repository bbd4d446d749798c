import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { webhookKeys } from './query-keys.ts';

type Webhook = components['schemas']['Webhook'];

/** DELETE /v1/workspaces/{slug}/webhooks/{id} with `If-Match`; its delivery log goes with it. */
export function useDeleteWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhook: Webhook) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/webhooks/{id}', {
          params: { path: { slug, id: webhook.id }, header: ifMatch(webhook) },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list({ slug }) }),
  });
}
