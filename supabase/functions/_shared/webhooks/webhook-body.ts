/**
 * The body a delivery sends (openapi.yaml `webhooks`): `{ type, timestamp, data }`, where an event's
 * `data` is the event as the feed answers it, and a ping's body is the one queued. Made from the rows
 * each time, and the same each time, so every try of a delivery sends (and signs) the same bytes.
 */
import type { WebhookEventPayload } from '../api-types.ts';
import { toEvent, type EventRow } from '../events/event-object.ts';

export function webhookBodyOf(payload: Record<string, unknown> | null, event: EventRow | null): string {
  if (event) {
    const data = toEvent(event);
    const body: WebhookEventPayload = { type: data.type, timestamp: data.created_at, data };
    return JSON.stringify(body);
  }
  return JSON.stringify(payload ?? {});
}
