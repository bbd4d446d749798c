/**
 * SQL for the export. The document's rows are read as the caller (RLS shows a workspace's rows to its
 * members) through one server-side cursor over every collection, fetched in batches: one cursor, so one
 * snapshot shows the whole workspace (no task names a label the export lacks), and batches, so neither
 * Postgres nor the function ever holds more than one. Each row is built by the same SQL json builder the
 * event log uses, so its shape is the API's; an attachment (ready ones only) adds its `download_url`. The
 * export budget is counted on the service connection.
 */
import type { CredentialHolder } from '../../_shared/auth/credential-verifier.ts';
import type { Sql } from '../../_shared/db.ts';
import { countRequest, type RequestCountRow } from '../rate-limits/rate-limits.queries.ts';
import {
  workspaceIdOf,
  workspaceValueOf,
  type WorkspaceReference,
} from '../workspaces/workspace-access.queries.ts';
import type { ExportRow } from './export-document.ts';

/** Rows per fetch: one chunk of the response. */
export const EXPORT_BATCH_SIZE = 500;

const CURSOR = 'workspace_export';

// The branches of `union all` are read in the order written (a cursor's plan is never parallel), each
// in its own order; export-document.ts checks the collections arrive in this order.
const EXPORT_ROWS = `
  select 'members' as collection, private.member_json(x.m)::text as json
  from (select m from public.memberships m where m.workspace_id = $1 order by m.created_at, m.user_id) x
  union all
  select 'labels', private.label_json(x.l)::text
  from (select l from public.labels l where l.workspace_id = $1 order by lower(l.name), l.id) x
  union all
  select 'projects', private.project_json(x.p)::text
  from (select p from public.projects p where p.workspace_id = $1 order by p.created_at, p.id) x
  union all
  select 'tasks', private.task_json(x.t)::text
  from (select t from public.tasks t where t.workspace_id = $1 order by t.project_id, private.task_status_rank(t.status), t.position) x
  union all
  select 'comments', private.comment_json(x.c)::text
  from (select c from public.comments c where c.workspace_id = $1 order by c.task_id, c.created_at, c.id) x
  union all
  select 'attachments',
    (private.attachment_json(x.a) || jsonb_build_object('download_url', $2::text || '/v1/attachments/' || (x.a).id || '/download'))::text
  from (
    select a from public.attachments a where a.workspace_id = $1 and a.status = 'ready'
    order by a.task_id, a.created_at, a.id
  ) x`;

/** The database's clock now, as the API writes timestamps: when the snapshot is about to be taken. */
export async function selectClock(sql: Sql): Promise<string> {
  const [row] = await sql.query<{ now: string }>('select private.iso_timestamp(clock_timestamp()) as now');
  if (!row) throw new Error('select clock_timestamp() answered no row');
  return row.now;
}

/**
 * Opens the cursor over the workspace's rows; it lives until the transaction ends. By the slug of one of
 * the caller's workspaces, it can be sent before the access is judged.
 *
 * @param apiUrl the API's public address, without a trailing slash: an attachment's `download_url` is
 *   its GET /v1/attachments/{id}/download there, which lasts, unlike a signed Storage URL.
 */
export async function openExportCursor(
  sql: Sql,
  workspace: WorkspaceReference,
  apiUrl: string,
): Promise<void> {
  const rows = EXPORT_ROWS.replaceAll('$1', () => workspaceIdOf(workspace, '$1'));
  await sql.query(`declare ${CURSOR} no scroll cursor for ${rows}`, [workspaceValueOf(workspace), apiUrl]);
}

/** The next batch of rows; fewer than EXPORT_BATCH_SIZE once the cursor is at its end. */
export function fetchExportRows(sql: Sql): Promise<ExportRow[]> {
  return sql.query<ExportRow & Record<string, unknown>>(`fetch forward ${EXPORT_BATCH_SIZE} from ${CURSOR}`);
}

/** The rate-limit bucket of a workspace's export budget. */
export const exportBucketOf = (workspaceId: string): string => `export:${workspaceId}`;

/** Counts one export of the workspace against its budget for the current window. */
export function countExport(sql: Sql, workspaceId: string, windowSeconds: number): Promise<RequestCountRow> {
  return countRequest(sql, exportBucketOf(workspaceId), windowSeconds);
}

export interface ExportCountRow extends RequestCountRow {
  workspace_id: string;
}

/**
 * The same, as the service, for the workspace with `slug` if the credential's holder is one of its
 * owners or admins (an API token's holder found by its hash); nothing counted otherwise. Sent before the
 * credential is judged: the export takes the count over, or it is handed back.
 */
export async function countExportOfHolder(
  sql: Sql,
  holder: CredentialHolder,
  slug: string,
  windowSeconds: number,
): Promise<ExportCountRow | undefined> {
  const byHolder =
    'apiTokenHashHex' in holder
      ? "m.user_id = (select t.user_id from public.api_tokens t where t.token_hash = decode($1, 'hex'))"
      : 'm.user_id = $1::uuid';
  const [row] = await sql.query<ExportCountRow>(
    `select w.id as workspace_id, counted.hits, counted.window_started_at, counted.resets_in_seconds
     from public.workspaces w
     join public.memberships m on m.workspace_id = w.id and m.role in ('owner', 'admin') and ${byHolder}
     cross join lateral private.count_request('export:' || w.id::text, $3) as counted
     where w.slug = $2`,
    ['apiTokenHashHex' in holder ? holder.apiTokenHashHex : holder.userId, slug, windowSeconds],
  );
  return row;
}
