/** The bench's arrangements for row o, as the database owner: a webhook to the bench's receiver, and after. */
import type { Db } from '../local/db.ts';
import { generateWebhookSecret } from '../supabase/functions/_shared/webhooks/standard-webhooks.ts';

/** A webhook of the workspace `slug` for `task.created`, to `url`; its id and secret. */
export async function insertBenchWebhook(
  db: Db,
  slug: string,
  url: string,
): Promise<{ id: string; secret: string }> {
  const secret = generateWebhookSecret();
  const result = await db.query<{ id: string }>(
    `with h as (
       insert into public.webhooks (workspace_id, url, events)
       select w.id, $2, '{task.created}' from public.workspaces w where w.slug = $1
       returning id
     )
     insert into private.webhook_secrets (webhook_id, secret) select id, $3 from h returning webhook_id as id`,
    [slug, url, secret],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`no workspace ${slug}`);
  return { id, secret };
}

/** The webhook's deliveries by status, for the row's note. */
export async function countDeliveries(db: Db, webhookId: string): Promise<Record<string, number>> {
  const result = await db.query<{ status: string; count: number }>(
    `select status, count(*)::integer as count from public.webhook_deliveries where webhook_id = $1 group by status`,
    [webhookId],
  );
  return Object.fromEntries(result.rows.map((row) => [row.status, row.count]));
}

export async function deleteWebhook(db: Db, webhookId: string): Promise<void> {
  await db.query('delete from public.webhooks where id = $1', [webhookId]);
}
