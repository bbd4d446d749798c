/**
 * SQL for the dispatcher, which runs as the service (RLS bypassed). A claim moves each due delivery's
 * next attempt past a lease, under `for update skip locked`, so two dispatchers never send the same one
 * at once and one that dies leaves it due again when the lease ends. Only active webhooks' deliveries
 * are claimed, and pings whatever the webhook's state.
 */
import type { Sql } from '../_shared/db.ts';
import {
  WEBHOOK_DELIVERY_COLUMNS,
  type WebhookDeliveryWithEvent,
} from '../_shared/webhooks/webhook-delivery-row.ts';
import type { WebhookDeliveryStatus } from '../_shared/api-types.ts';

export interface ClaimedDelivery extends WebhookDeliveryWithEvent {
  url: string;
  secret: string;
  /** The secret before the last rotation, for 24 hours after it; null otherwise. */
  previous_secret: string | null;
  workspace_slug: string;
}

/** Claims up to `limit` due deliveries, each for `leaseSeconds`, counting the try it is about to make. */
export function claimDueDeliveries(
  sql: Sql,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  return sql.query<ClaimedDelivery>(
    `with due as (
       select d.id from public.webhook_deliveries d
       join public.webhooks h on h.id = d.webhook_id
       where d.status in ('pending', 'retrying') and d.next_attempt_at <= now()
         and (h.active or d.event_type = 'ping')
       order by d.next_attempt_at
       limit $1
       for update of d skip locked
     ), d as (
       update public.webhook_deliveries u
       set attempts = u.attempts + 1, next_attempt_at = now() + make_interval(secs => $2), updated_at = now()
       from due where u.id = due.id
       returning u.*
     )
     select ${WEBHOOK_DELIVERY_COLUMNS}, h.url, s.secret,
       case when s.previous_expires_at > now() then s.previous_secret end as previous_secret,
       w.slug as workspace_slug
     from d
     join public.webhooks h on h.id = d.webhook_id
     join public.workspaces w on w.id = h.workspace_id
     join private.webhook_secrets s on s.webhook_id = h.id
     left join public.events e on e.id = d.event_id
     order by d.next_attempt_at`,
    [limit, leaseSeconds],
  );
}

export interface AttemptRecord {
  deliveryId: string;
  status: WebhookDeliveryStatus;
  retryStep: number;
  /** When to try again; null once it succeeded or failed for good. */
  nextAttemptAt: Date | null;
  requestHeaders: Record<string, string>;
  responseCode: number | null;
  /** The response's first 4 KiB. */
  responseBody: string | null;
  latencyMs: number | null;
  error: string | null;
  /** The receiver answered 410 Gone: the webhook is switched off. */
  gone: boolean;
}

export interface WebhookHealth extends Record<string, unknown> {
  /** Set when this attempt switched the webhook off for failing 3 days: its admins are to be told. */
  stopped_failing: boolean;
}

/**
 * Records the try, and what it says of the webhook: a success clears its failing streak; a failure
 * starts one, and one that has lasted 3 days switches the webhook off (`failing`), as a 410 does
 * (`gone`). Pings leave the webhook's health alone. One statement.
 */
export async function recordAttempt(
  sql: Sql,
  attempt: AttemptRecord,
  failingForSeconds: number,
): Promise<WebhookHealth> {
  const [row] = await sql.query<WebhookHealth>(
    `with d as (
       update public.webhook_deliveries set
         status = $2, retry_step = $3, next_attempt_at = $4, last_attempt_at = now(),
         last_request_headers = $5, last_response_code = $6, last_response_body = $7,
         last_latency_ms = $8, last_error = $9, updated_at = now()
       where id = $1
       returning webhook_id, event_type
     ), verdict as (
       select h.id, d.event_type = 'ping' as ping,
         $2 = 'succeeded' as succeeded,
         $10::boolean as gone,
         $2 <> 'succeeded' and coalesce(h.failing_since < now() - make_interval(secs => $11), false)
           as failing_too_long
       from d join public.webhooks h on h.id = d.webhook_id
     ), h as (
       update public.webhooks w set
         failing_since = case when v.succeeded then null else coalesce(w.failing_since, now()) end,
         active = w.active and not (v.gone or v.failing_too_long),
         disabled_reason = case
           when w.active and v.gone then 'gone'
           when w.active and v.failing_too_long then 'failing'
           else w.disabled_reason end
       from verdict v
       where w.id = v.id and not v.ping and w.active
         and (v.succeeded = (w.failing_since is not null) or v.gone or v.failing_too_long)
       returning not w.active and w.disabled_reason = 'failing' as stopped_failing
     )
     select coalesce((select stopped_failing from h), false) as stopped_failing`,
    [
      attempt.deliveryId,
      attempt.status,
      attempt.retryStep,
      attempt.nextAttemptAt,
      JSON.stringify(attempt.requestHeaders),
      attempt.responseCode,
      attempt.responseBody,
      attempt.latencyMs,
      attempt.error,
      attempt.gone,
      failingForSeconds,
    ],
  );
  return row ?? { stopped_failing: false };
}

/**
 * Queues a mail to each owner and admin of the webhook's workspace (the API's scheduled mail run sends
 * the outbox), saying it was switched off.
 */
export async function queueStoppedWebhookMail(
  sql: Sql,
  webhookId: string,
  mail: { subject: string; text: string; html: string },
): Promise<void> {
  await sql.query(
    `insert into private.mail_outbox (user_id, mail)
     select m.user_id, jsonb_build_object('to', u.email, 'subject', $2::text, 'text', $3::text, 'html', $4::text)
     from public.webhooks h
     join public.memberships m on m.workspace_id = h.workspace_id and m.role in ('owner', 'admin')
     join auth.users u on u.id = m.user_id
     where h.id = $1 and u.email is not null`,
    [webhookId, mail.subject, mail.text, mail.html],
  );
}
