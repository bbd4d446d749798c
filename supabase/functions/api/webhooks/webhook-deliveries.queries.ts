/**
 * SQL for a webhook's delivery log. Runs as the caller: RLS shows deliveries to the workspace's admins
 * only; queueing a ping and sending one again go through private functions that check the same.
 */
import type { Sql } from '../../_shared/db.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import {
  WEBHOOK_DELIVERY_COLUMNS,
  type WebhookDeliveryWithEvent,
} from '../../_shared/webhooks/webhook-delivery-row.ts';
import { callerWorkspaceIdAt } from '../workspaces/workspace-access.queries.ts';

export interface WebhookDeliveryListRow extends WebhookDeliveryWithEvent {
  sort_key: CreatedAtIdKey;
}

const FROM_DELIVERIES = `public.webhook_deliveries d
  join public.webhooks h on h.id = d.webhook_id
  left join public.events e on e.id = d.event_id`;

/** A page of the webhook's deliveries, newest first. */
export function selectWebhookDeliveries(
  sql: Sql,
  slug: string,
  webhookId: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<WebhookDeliveryListRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<WebhookDeliveryListRow>(
    `select ${WEBHOOK_DELIVERY_COLUMNS}, json_build_array(d.created_at, d.id) as sort_key
     from ${FROM_DELIVERIES}
     where h.workspace_id = ${callerWorkspaceIdAt('$1')} and d.webhook_id = $2
       and ($3::timestamptz is null or (d.created_at, d.id) < ($3::timestamptz, $4::uuid))
     order by d.created_at desc, d.id desc
     limit $5`,
    [slug, webhookId, createdAt, id, rowsToFetch(page)],
  );
}

export async function selectWebhookDelivery(
  sql: Sql,
  slug: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryWithEvent | undefined> {
  const [row] = await sql.query<WebhookDeliveryWithEvent>(
    `select ${WEBHOOK_DELIVERY_COLUMNS} from ${FROM_DELIVERIES}
     where h.workspace_id = ${callerWorkspaceIdAt('$1')} and d.webhook_id = $2 and d.id = $3`,
    [slug, webhookId, deliveryId],
  );
  return row;
}

/** Queues a ping to the webhook, due at once; the delivery, as queued. */
export async function queueWebhookPing(sql: Sql, webhookId: string): Promise<WebhookDeliveryWithEvent> {
  const [row] = await sql.query<WebhookDeliveryWithEvent>(
    `select ${WEBHOOK_DELIVERY_COLUMNS}
     from private.queue_webhook_ping($1) d left join public.events e on e.id = d.event_id`,
    [webhookId],
  );
  if (!row) throw new Error('private.queue_webhook_ping returned no row');
  return row;
}

/** Makes the delivery due again at once, its schedule from the start. */
export async function redeliverWebhookDelivery(sql: Sql, deliveryId: string): Promise<void> {
  await sql.query('select private.redeliver_webhook_delivery($1)', [deliveryId]);
}
