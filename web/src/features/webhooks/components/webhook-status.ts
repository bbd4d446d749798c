import type { components } from '@api-spec/schema.d.ts';

type Webhook = components['schemas']['Webhook'];

export type WebhookTone = 'on' | 'off' | 'problem';

/** What a webhook's row says about it: on, switched off by a person, or switched off by Tasklane and why. */
export function webhookStatus(webhook: Webhook): { label: string; tone: WebhookTone } {
  if (webhook.active) return { label: 'Active', tone: 'on' };
  if (webhook.disabled_reason === 'failing') return { label: 'Off: failing for 3 days', tone: 'problem' };
  if (webhook.disabled_reason === 'gone') {
    return { label: 'Off: the receiver answered 410 Gone', tone: 'problem' };
  }
  return { label: 'Off', tone: 'off' };
}
