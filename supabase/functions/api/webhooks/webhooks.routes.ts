/**
 * /v1/workspaces/{slug}/webhooks[/{id}[/rotate-secret|/test|/deliveries[/{delivery_id}[/redeliver]]]]
 * — a workspace's webhooks and their delivery log, for its owners and admins.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, slugOf, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import {
  deliveryNotFound,
  getWebhookDelivery,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  testWebhook,
  type WebhookDeliveryAddress,
} from './webhook-deliveries.service.ts';
import { CreateWebhookBodySchema, UpdateWebhookBodySchema } from './webhooks.schemas.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  webhookNotFound,
  type WebhookAddress,
} from './webhooks.service.ts';

const ListQuery = z.object(pageParameters(CreatedAtIdKey));
const HOOK = '/workspaces/:slug/webhooks/:id';
const DELIVERY = `${HOOK}/deliveries/:delivery_id`;

/** The webhook's address; an `{id}` that is not a UUID names no webhook. */
function webhookAddressOf<E extends AuthenticatedEnv>(c: Context<E>): WebhookAddress {
  return { slug: slugOf(c), id: shapedPathParam(c, 'id', UuidShape, webhookNotFound) };
}

function deliveryAddressOf<E extends AuthenticatedEnv>(c: Context<E>): WebhookDeliveryAddress {
  const deliveryId = shapedPathParam(c, 'delivery_id', UuidShape, deliveryNotFound);
  return { ...webhookAddressOf(c), deliveryId };
}

export const webhooksRoutes = ({ db, webhookDestinations }: Pick<AppDeps, 'db' | 'webhookDestinations'>) => {
  const deps = { db, webhookDestinations };
  return new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/webhooks', async (c) => {
      const request = await readJsonBody(c, CreateWebhookBodySchema);
      const webhook = await createWebhook(deps, c.var.principal, slugOf(c), request);
      // Relative to the request's own URL (…/webhooks), so it holds behind any gateway prefix.
      c.header('Location', `webhooks/${webhook.id}`);
      return jsonWithETag(c, webhook, 201);
    })
    .get('/workspaces/:slug/webhooks', queryOf(ListQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listWebhooks(db, c.var.principal, slugOf(c), { limit, cursor }));
    })
    .get(HOOK, async (c) => jsonWithETag(c, await getWebhook(db, c.var.principal, webhookAddressOf(c))))
    .patch(HOOK, async (c) => {
      const address = webhookAddressOf(c);
      const changes = await readMergePatch(c, UpdateWebhookBodySchema);
      return jsonWithETag(c, await updateWebhook(deps, c.var.principal, address, changes, readIfMatch(c)));
    })
    .delete(HOOK, async (c) => {
      await deleteWebhook(db, c.var.principal, webhookAddressOf(c), readIfMatch(c));
      return c.body(null, 204);
    })
    .post(`${HOOK}/rotate-secret`, async (c) =>
      jsonWithETag(c, await rotateWebhookSecret(db, c.var.principal, webhookAddressOf(c))),
    )
    .post(`${HOOK}/test`, async (c) =>
      c.json(await testWebhook(db, c.var.principal, webhookAddressOf(c)), 202),
    )
    .get(`${HOOK}/deliveries`, queryOf(ListQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      const page = await listWebhookDeliveries(db, c.var.principal, webhookAddressOf(c), { limit, cursor });
      return listResponse(c, page);
    })
    .get(DELIVERY, async (c) => c.json(await getWebhookDelivery(db, c.var.principal, deliveryAddressOf(c))))
    .post(`${DELIVERY}/redeliver`, async (c) =>
      c.json(await redeliverWebhookDelivery(db, c.var.principal, deliveryAddressOf(c)), 202),
    );
};
