/**
 * A row of public.webhook_deliveries `d`, joined with the event it delivers (`e`, null for a ping), as
 * the API's delivery log and the dispatcher read it; and what the API answers of it.
 */
import type { WebhookDelivery, WebhookDeliveryStatus } from '../api-types.ts';
import { EVENT_COLUMNS, type EventRow } from '../events/event-object.ts';

export interface WebhookDeliveryRow extends Record<string, unknown> {
  delivery_id: string;
  webhook_id: string;
  /** bigint, as text; null for a ping. */
  event_id: string | null;
  event_type: string;
  /** A ping's body; null for an event, whose body is made from the event. */
  payload: Record<string, unknown> | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  retry_step: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_request_headers: Record<string, string> | null;
  last_response_code: number | null;
  last_response_body: string | null;
  last_latency_ms: number | null;
  last_error: string | null;
  delivery_created_at: Date;
}

/** The delivery and, when it delivers an event, that event's columns (EventRow's, null for a ping). */
export type WebhookDeliveryWithEvent = WebhookDeliveryRow & Partial<Record<keyof EventRow, unknown>>;

/** The columns of WebhookDeliveryWithEvent, from `public.webhook_deliveries d left join public.events e`. */
export const WEBHOOK_DELIVERY_COLUMNS = `d.id as delivery_id, d.webhook_id, d.event_id::text as event_id,
  d.event_type, d.payload, d.status, d.attempts, d.retry_step, d.next_attempt_at, d.last_attempt_at,
  d.last_request_headers, d.last_response_code, d.last_response_body, d.last_latency_ms, d.last_error,
  d.created_at as delivery_created_at, ${EVENT_COLUMNS}`;

/** The event the delivery carries, or null for a ping. */
export function eventRowOf(row: WebhookDeliveryWithEvent): EventRow | null {
  // The join's columns are the event's; a ping has none.
  return row.event_id === null ? null : (row as unknown as EventRow);
}

const iso = (time: Date | null): string | null => time?.toISOString() ?? null;

export function toWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  const settled = row.status === 'succeeded' || row.status === 'failed';
  return {
    object: 'webhook_delivery',
    id: row.delivery_id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    response_status: row.last_response_code,
    latency_ms: row.last_latency_ms,
    error: row.last_error,
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: settled ? null : iso(row.next_attempt_at),
    created_at: row.delivery_created_at.toISOString(),
  };
}
