/**
 * SQL for webhooks. Runs as the caller: RLS shows and lets change a workspace's webhooks to its admins
 * only. An insert past WEBHOOKS_PER_WORKSPACE is refused by a trigger (P0001, hint `limit_reached`),
 * under a lock of the workspace. Secrets go through private.set_webhook_secret and are never read back.
 */
import type { Webhook } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { WEBHOOKS_PER_WORKSPACE } from '../../_shared/limits.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import { raisedErrorCode, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import { callerWorkspaceIdAt } from '../workspaces/workspace-access.queries.ts';

export interface NewWebhookRow {
  url: string;
  events: readonly string[];
  active: boolean;
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: readonly string[] | undefined;
  active?: boolean | undefined;
}

export interface WebhookListRow extends Record<string, unknown> {
  webhook: Webhook;
  sort_key: CreatedAtIdKey;
}

/** The webhook as the API answers it. */
const WEBHOOK_JSON = `json_build_object(
  'object', 'webhook', 'id', h.id, 'workspace_id', h.workspace_id, 'url', h.url, 'events', h.events,
  'active', h.active, 'disabled_reason', h.disabled_reason, 'created_by', h.created_by,
  'version', h.version, 'created_at', private.iso_timestamp(h.created_at),
  'updated_at', private.iso_timestamp(h.updated_at)) as webhook`;

/** Inserts the webhook, with the id the caller chose (so its secret can follow in the same round trip). */
export async function insertWebhook(
  sql: Sql,
  workspaceId: string,
  id: string,
  webhook: NewWebhookRow,
): Promise<Webhook> {
  const [row] = await refusing(
    sql.query<{ webhook: Webhook }>(
      `insert into public.webhooks as h (id, workspace_id, url, events, active) values ($1, $2, $3, $4, $5)
       returning ${WEBHOOK_JSON}`,
      [id, workspaceId, webhook.url, webhook.events, webhook.active],
    ),
    webhookLimitRefusal,
  );
  if (!row) throw new Error('insert into webhooks returned no row');
  return row.webhook;
}

/** Sets the webhook's signing secret; `rotate` keeps the old one signing for 24 hours. */
export async function setWebhookSecret(sql: Sql, id: string, secret: string, rotate: boolean): Promise<void> {
  await sql.query('select private.set_webhook_secret($1, $2, $3)', [id, secret, rotate]);
}

/** A page of the caller's workspace `slug`'s webhooks, oldest first. */
export function selectWebhooks(
  sql: Sql,
  slug: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<WebhookListRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<WebhookListRow>(
    `select ${WEBHOOK_JSON}, json_build_array(h.created_at, h.id) as sort_key from public.webhooks h
     where h.workspace_id = ${callerWorkspaceIdAt('$1')}
       and ($2::timestamptz is null or (h.created_at, h.id) > ($2::timestamptz, $3::uuid))
     order by h.created_at, h.id
     limit $4`,
    [slug, createdAt, id, rowsToFetch(page)],
  );
}

export async function selectWebhook(sql: Sql, slug: string, id: string): Promise<Webhook | undefined> {
  const [row] = await sql.query<{ webhook: Webhook }>(
    `select ${WEBHOOK_JSON} from public.webhooks h
     where h.workspace_id = ${callerWorkspaceIdAt('$1')} and h.id = $2`,
    [slug, id],
  );
  return row?.webhook;
}

/** Applies the changes if the webhook is at an expected version; undefined when no row changed. */
export async function updateWebhook(
  sql: Sql,
  workspaceId: string,
  id: string,
  changes: WebhookChanges,
  expected: ExpectedVersion,
): Promise<Webhook | undefined> {
  const [row] = await sql.query<{ webhook: Webhook }>(
    `update public.webhooks h
     set url = coalesce($3, url), events = coalesce($4, events), active = coalesce($5, active)
     where workspace_id = $1 and id = $2 and ($6::integer[] is null or version = any($6::integer[]))
     returning ${WEBHOOK_JSON}`,
    [workspaceId, id, changes.url ?? null, changes.events ?? null, changes.active ?? null, expected],
  );
  return row?.webhook;
}

/** Deletes the webhook if it is at an expected version; whether a row was deleted. */
export async function deleteWebhook(
  sql: Sql,
  workspaceId: string,
  id: string,
  expected: ExpectedVersion,
): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(
    `delete from public.webhooks
     where workspace_id = $1 and id = $2 and ($3::integer[] is null or version = any($3::integer[]))
     returning id`,
    [workspaceId, id, expected],
  );
  return rows.length > 0;
}

const webhookLimitRefusal: Refusals = (error) =>
  raisedErrorCode(error) === 'limit_reached'
    ? new AppError(
        'limit_reached',
        `This workspace already has ${WEBHOOKS_PER_WORKSPACE} webhooks, the limit (webhooks_per_workspace). Delete one first.`,
      )
    : undefined;
