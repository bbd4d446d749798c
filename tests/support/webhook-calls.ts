/**
 * Calls on a workspace's webhooks and their delivery log, typed by the contract, and what the database
 * holds for them, read as the service. `raw` sends bodies the contract forbids, deliberately untyped.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf, type Sendable } from './api-client.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { jsonRequest } from './resource-calls.ts';
import { asService } from './service-transaction.ts';
import { withBearer } from './test-users.ts';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type NewWebhook = Schemas['NewWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** A creation body as sent: `active` may be left out (it defaults to true). */
export type CreateWebhook = Sendable<Schemas['CreateWebhook'], 'active'>;

export function webhookCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const hook = (slug: string, id: string) => ({ params: { path: { slug, id } } });
  const delivery = (slug: string, id: string, deliveryId: string) => ({
    params: { path: { slug, id, delivery_id: deliveryId } },
  });
  return {
    create: (bearer: string, slug: string, body: CreateWebhook, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/webhooks', {
          params: { path: { slug } },
          body: body as Schemas['CreateWebhook'],
          headers: withAuthorization(bearer, headers),
        }),
      ),
    list: (bearer: string, slug: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/webhooks', {
          params: { path: { slug } },
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, slug: string, id: string) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/webhooks/{id}', {
          ...hook(slug, id),
          headers: withAuthorization(bearer),
        }),
      ),
    update: (
      bearer: string,
      slug: string,
      id: string,
      body: Schemas['UpdateWebhook'],
      headers?: RequestHeaders,
    ) =>
      responseOf(
        client.PATCH('/v1/workspaces/{slug}/webhooks/{id}', {
          ...hook(slug, id),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, slug: string, id: string) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}/webhooks/{id}', {
          ...hook(slug, id),
          headers: withAuthorization(bearer),
        }),
      ),
    rotate: (bearer: string, slug: string, id: string) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/webhooks/{id}/rotate-secret', {
          ...hook(slug, id),
          headers: withAuthorization(bearer),
        }),
      ),
    test: (bearer: string, slug: string, id: string) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/webhooks/{id}/test', {
          ...hook(slug, id),
          headers: withAuthorization(bearer),
        }),
      ),
    deliveries: (bearer: string, slug: string, id: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/webhooks/{id}/deliveries', {
          ...hook(slug, id),
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    delivery: (bearer: string, slug: string, id: string, deliveryId: string) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}', {
          ...delivery(slug, id, deliveryId),
          headers: withAuthorization(bearer),
        }),
      ),
    redeliver: (bearer: string, slug: string, id: string, deliveryId: string) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
          ...delivery(slug, id, deliveryId),
          headers: withAuthorization(bearer),
        }),
      ),
    raw: {
      create: (bearer: string, slug: string, body: unknown): Promise<ApiResponse> =>
        callApi(app, `/api/v1/workspaces/${slug}/webhooks`, withBearer(bearer, jsonRequest('POST', body))),
    },
  };
}

export interface StoredDelivery extends Record<string, unknown> {
  id: string;
  webhook_id: string;
  event_type: string;
  status: string;
  attempts: number;
}

/** The deliveries the database holds for `webhookId`, oldest first. */
export function storedDeliveries(db: Database, webhookId: string): Promise<StoredDelivery[]> {
  return asService(db, (sql) =>
    sql.query<StoredDelivery>(
      `select id, webhook_id, event_type, status, attempts from public.webhook_deliveries
       where webhook_id = $1 order by created_at, id`,
      [webhookId],
    ),
  );
}

/** The webhook's stored secrets: the current one and the one before a rotation, while it still signs. */
export async function storedSecrets(
  db: Database,
  webhookId: string,
): Promise<{ secret: string; previous_secret: string | null } | undefined> {
  const [row] = await asService(db, (sql) =>
    sql.query<{ secret: string; previous_secret: string | null }>(
      'select secret, previous_secret from private.webhook_secrets where webhook_id = $1',
      [webhookId],
    ),
  );
  return row;
}
