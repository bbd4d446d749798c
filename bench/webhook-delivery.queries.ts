/** The bench's arrangements for the webhook rows (o–o3), as the database owner. */
import type { Db } from '../local/db.ts';
import { generateWebhookSecret } from '../supabase/functions/_shared/webhooks/standard-webhooks.ts';

/** A webhook of the workspace `slug` for `events`, to `url`; its id and secret. */
export async function insertBenchWebhook(
  db: Db,
  slug: string,
  url: string,
  events: readonly string[],
): Promise<{ id: string; secret: string }> {
  const secret = generateWebhookSecret();
  const result = await db.query<{ id: string }>(
    `with h as (
       insert into public.webhooks (workspace_id, url, events)
       select w.id, $2, $4 from public.workspaces w where w.slug = $1
       returning id
     )
     insert into private.webhook_secrets (webhook_id, secret) select id, $3 from h returning webhook_id as id`,
    [slug, url, secret, events],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`no workspace ${slug}`);
  return { id, secret };
}

/** The webhooks' deliveries by status, for the rows' notes. */
export async function countDeliveries(
  db: Db,
  webhookIds: readonly string[],
): Promise<Record<string, number>> {
  const result = await db.query<{ status: string; count: number }>(
    `select status, count(*)::integer as count from public.webhook_deliveries
     where webhook_id = any ($1::uuid[]) group by status`,
    [webhookIds],
  );
  return Object.fromEntries(result.rows.map((row) => [row.status, row.count]));
}

export async function deleteWebhook(db: Db, webhookId: string): Promise<void> {
  await db.query('delete from public.webhooks where id = $1', [webhookId]);
}

/** Up to `limit` tasks of the project, in a stable order, to change one by one or all at once. */
export async function taskIdsOf(db: Db, projectId: string, limit: number): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    'select id from public.tasks where project_id = $1 order by id limit $2',
    [projectId, limit],
  );
  return result.rows.map((row) => row.id);
}

/**
 * Changes the tasks' priority in one statement, so one transaction: its trigger appends a `task.updated`
 * event for each, and each event queues its deliveries, as a change made through the API would.
 */
export async function changeTasks(db: Db, taskIds: readonly string[]): Promise<void> {
  await db.query(
    `update public.tasks set priority = case when priority = 'high' then 'low' else 'high' end::public.task_priority
     where id = any ($1::uuid[])`,
    [taskIds],
  );
}

/**
 * How long the database has spent running statements, in all its sessions so far (milliseconds). A
 * session reports its share when it goes idle, at the latest 10 s after it last did
 * (see STATISTICS_FLUSH_MS).
 */
export async function databaseActiveMs(db: Db): Promise<number> {
  const result = await db.query<{ active_ms: number }>(
    'select active_time as active_ms from pg_stat_database where datname = current_database()',
  );
  return Number(result.rows[0]?.active_ms ?? Number.NaN);
}

/** Long enough for every idle session to have reported its statistics. */
export const STATISTICS_FLUSH_MS = 11_000;
