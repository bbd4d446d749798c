/**
 * SQL for events. Runs as the caller: RLS shows the events of their workspaces only. Events are read
 * in commit order, by `seq` (event-order.ts).
 */
import { EVENT_COLUMNS, type EventRow } from '../../_shared/events/event-object.ts';
import type { Sql } from '../../_shared/db.ts';
import { rowsToFetch, type PageRequest } from '../../_shared/pages.ts';
import { callerWorkspaceIdAt } from '../workspaces/workspace-access.queries.ts';
import type { ActivitySeqKey } from './event-order.ts';
import type { EventTypeFilter } from './event-types.ts';

export type { EventRow };

export interface ActivityRow extends EventRow {
  sort_key: ActivitySeqKey;
}

/** A page of the task's events, in commit order. */
export function selectTaskEvents(
  sql: Sql,
  taskId: string,
  page: PageRequest<ActivitySeqKey>,
): Promise<ActivityRow[]> {
  const [afterSeq] = page.cursor ?? [null];
  return sql.query<ActivityRow>(
    `select ${EVENT_COLUMNS}, json_build_array(e.seq) as sort_key
     from public.events e
     where e.task_id = $1 and ($2::bigint is null or e.seq > $2::bigint)
     order by e.seq
     limit $3`,
    [taskId, afterSeq, rowsToFetch(page)],
  );
}

export interface FeedRead {
  /** Up to `limit + 1` events after the position, in commit order, of the types asked for. */
  events: EventRow[];
  /** The highest seq of the workspace's events this read could see (0 when there are none). */
  head: number;
}

/**
 * Events of the workspace after `afterSeq`, and the workspace's last seq, read in ONE statement so both
 * come from the same snapshot: every event committed later has a higher seq than that head, so a reader
 * may move its position up to the head without skipping one.
 */
export async function selectFeed(
  sql: Sql,
  slug: string,
  afterSeq: number,
  filter: EventTypeFilter | undefined,
  limit: number,
): Promise<FeedRead> {
  const rows = await sql.query<Partial<EventRow> & { head: string | null }>(
    `with workspace as (
       select ${callerWorkspaceIdAt('$1')} as id
     ), head as (
       select max(h.seq) as seq from public.events h where h.workspace_id = (select id from workspace)
     ), page as (
       select ${EVENT_COLUMNS} from public.events e
       where e.workspace_id = (select id from workspace) and e.seq > $2::bigint
         and ($3::text[] is null or e.type = any($3::text[]) or split_part(e.type, '.', 1) = any($4::text[]))
       order by e.seq
       limit $5
     )
     select head.seq::text as head, page.* from head left join page on true order by page.seq::bigint`,
    [slug, afterSeq, filter?.types ?? null, filter?.resources ?? null, limit + 1],
  );
  return {
    events: rows.filter((row): row is EventRow & { head: string | null } => typeof row.id === 'string'),
    head: Number(rows[0]?.head ?? 0),
  };
}
