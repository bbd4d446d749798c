/**
 * A webhook's delivery log (docs/webhooks.md): list, one delivery with its request and response, a test
 * ping, and sending a delivery again; owners and admins only. Queueing wakes the dispatcher once the
 * request's transaction committed (middleware/wake-webhook-dispatcher.ts).
 */
import type { WebhookDelivery, WebhookDeliveryDetail } from '../../_shared/api-types.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { webhookBodyOf } from '../../_shared/webhooks/webhook-body.ts';
import {
  eventRowOf,
  toWebhookDelivery,
  type WebhookDeliveryWithEvent,
} from '../../_shared/webhooks/webhook-delivery-row.ts';
import { enterWorkspaceWith, readInWorkspace, requireRole } from '../workspaces/workspace-access.ts';
import {
  queueWebhookPing,
  redeliverWebhookDelivery as redeliverRow,
  selectWebhookDeliveries,
  selectWebhookDelivery,
} from './webhook-deliveries.queries.ts';
import { enterWebhook, webhookNotFound, type WebhookAddress } from './webhooks.service.ts';
import { selectWebhook } from './webhooks.queries.ts';

export interface WebhookDeliveryAddress extends WebhookAddress {
  deliveryId: string;
}

const MANAGE = 'manage webhooks';

export function deliveryNotFound(): AppError {
  return new AppError('not_found', 'This webhook has no delivery with this id.');
}

export function listWebhookDeliveries(
  db: Database,
  principal: Principal,
  address: WebhookAddress,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<WebhookDelivery>> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      Promise.all([
        selectWebhook(sql, address.slug, address.id),
        selectWebhookDeliveries(last, address.slug, address.id, page),
      ]),
    );
    requireRole(access, 'admin', MANAGE);
    const [webhook, rows] = found;
    if (!webhook) throw webhookNotFound();
    return pageOf(rows, page, toWebhookDelivery);
  });
}

export function getWebhookDelivery(
  db: Database,
  principal: Principal,
  address: WebhookDeliveryAddress,
): Promise<WebhookDeliveryDetail> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, address.slug, (last) =>
      selectWebhookDelivery(last, address.slug, address.id, address.deliveryId),
    );
    requireRole(access, 'admin', MANAGE);
    if (!found) throw deliveryNotFound();
    return toDeliveryDetail(found);
  });
}

/** Queues a ping, due at once, even to a webhook that is off; the delivery, `pending`. */
export function testWebhook(
  db: Database,
  principal: Principal,
  address: WebhookAddress,
): Promise<WebhookDelivery> {
  return db.asCaller(principal, async (sql) => {
    await enterWebhook(sql, principal, address, null);
    const row = await queueWebhookPing(asLastStatement(sql), address.id);
    return toWebhookDelivery(row);
  });
}

/** The delivery, due again at once with its schedule from the start and the same webhook-id. */
export function redeliverWebhookDelivery(
  db: Database,
  principal: Principal,
  address: WebhookDeliveryAddress,
): Promise<WebhookDelivery> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await enterWorkspaceWith(sql, principal, address.slug, () =>
      selectWebhookDelivery(sql, address.slug, address.id, address.deliveryId),
    );
    requireRole(access, 'admin', MANAGE);
    if (!found) throw deliveryNotFound();
    const [, row] = await Promise.all([
      redeliverRow(sql, address.deliveryId),
      selectWebhookDelivery(asLastStatement(sql), address.slug, address.id, address.deliveryId),
    ]);
    if (!row) throw deliveryNotFound();
    return toWebhookDelivery(row);
  });
}

function toDeliveryDetail(row: WebhookDeliveryWithEvent): WebhookDeliveryDetail {
  return {
    ...toWebhookDelivery(row),
    request: {
      headers: row.last_request_headers ?? {},
      body: webhookBodyOf(row.payload, eventRowOf(row)),
    },
    response:
      row.last_response_code === null
        ? null
        : { status: row.last_response_code, body: row.last_response_body ?? '' },
  };
}
