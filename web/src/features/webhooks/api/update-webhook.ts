import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { webhookKeys } from './query-keys.ts';

type Webhook = components['schemas']['Webhook'];
type UpdateWebhook = components['schemas']['UpdateWebhook'];

export interface UpdateWebhookVariables {
  /** The webhook as it was shown: its version goes in `If-Match`. */
  webhook: Webhook;
  patch: UpdateWebhook;
}

/** PATCH /v1/workspaces/{slug}/webhooks/{id} with `If-Match` (switching it off and on). */
export function useUpdateWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ webhook, patch }: UpdateWebhookVariables) =>
      unwrap(
        api.PATCH('/v1/workspaces/{slug}/webhooks/{id}', {
          params: { path: { slug, id: webhook.id }, header: ifMatch(webhook) },
          body: patch,
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list({ slug }) }),
  });
}
