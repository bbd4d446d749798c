import { CreateWebhookBodySchema } from '@api/webhooks/webhooks.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import {
  apiFieldErrors,
  validateForm,
  type FieldErrors,
  type Validation,
} from '../../lib/forms/form-validation.ts';

/** The webhook form's rules: the very schema `POST …/webhooks` validates with. */

export const WEBHOOK_FIELD_LABELS = { url: 'URL', events: 'Events' } as const;

export type WebhookField = keyof typeof WEBHOOK_FIELD_LABELS;

type CreateWebhook = components['schemas']['CreateWebhook'];

export interface WebhookFormValues {
  url: string;
  events: string[];
}

export function validateWebhook(values: WebhookFormValues): Validation<CreateWebhook, WebhookField> {
  return validateForm(CreateWebhookBodySchema, values, WEBHOOK_FIELD_LABELS);
}

/** The API's refusal (`422` on `body.url`, an address that is not public) beside its field. */
export function webhookApiErrors(error: unknown): FieldErrors<WebhookField> {
  return apiFieldErrors(error, WEBHOOK_FIELD_LABELS);
}
