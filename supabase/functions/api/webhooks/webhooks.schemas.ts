/**
 * The rules for a webhook's body (docs/product.md#validation): the URL's shape here, its addresses in
 * the service (webhook-destination.ts), since they take a DNS lookup. Imports nothing but zod and the
 * spec's vocabulary, so the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../../_shared/vocabulary/spec-values.ts';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_EVENTS_MAX = 64;

const RESOURCES: ReadonlySet<string> = new Set(EVENT_TYPES.map((type) => type.split('.')[0] ?? type));
const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Whether a webhook may listen to `filter`: a known type, `resource.*` of a known resource, or `*`. */
export function isWebhookEventFilter(filter: string): boolean {
  if (filter === '*' || TYPES.has(filter)) return true;
  const [resource, rest] = filter.split('.');
  return rest === '*' && resource !== undefined && RESOURCES.has(resource);
}

export const WebhookUrlSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);

export const WebhookEventsSchema = z
  .array(
    z.string().refine(isWebhookEventFilter, {
      message: 'must be an event type (task.created), every type of a resource (task.*), or *',
    }),
  )
  .min(1, 'must name at least one event type')
  .max(WEBHOOK_EVENTS_MAX, `must name at most ${WEBHOOK_EVENTS_MAX} event types`)
  .refine((events) => new Set(events).size === events.length, 'must not name a type twice');

export const CreateWebhookBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  events: WebhookEventsSchema,
  active: z.boolean().default(true),
});

/** `PATCH …/webhooks/{id}`: JSON Merge Patch over the writable fields. */
export const UpdateWebhookBodySchema = z.strictObject({
  url: WebhookUrlSchema.optional(),
  events: WebhookEventsSchema.optional(),
  active: z.boolean().optional(),
});
