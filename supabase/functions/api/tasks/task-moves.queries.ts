/**
 * SQL for where tasks stand in their columns (SPEC §2's drag and drop, board-placement.ts): the column's
 * lock, a move's neighbours, a column's order and its rebalance, and the moves themselves. Runs as the
 * caller, under the tasks' RLS, like tasks.queries.ts.
 */
import type { Task, TaskStatus } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { refusing } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import { taskWriteRefusals } from './tasks.queries.ts';

/**
 * Holds until the transaction ends, so that one column's placements (create, move, change of status)
 * run one at a time: each reads its neighbours' positions after the one before it committed, and no two
 * ever compute the same position.
 */
export async function lockColumn(sql: Sql, projectId: string, status: TaskStatus): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('task_column:' || $1::text || ':' || $2::text, 0))`,
    [projectId, status],
  );
}

/** lockColumn, for the column `status` of the project of the task `taskId`: none if the caller cannot see it. */
export async function lockColumnOfTask(sql: Sql, taskId: string, status: TaskStatus): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('task_column:' ||
       (select project_id from public.tasks where id = $1)::text || ':' || $2::text, 0))`,
    [taskId, status],
  );
}

/** Where a move's neighbours are in the target column, the moved task left out (null: none there). */
export interface NeighbourPositions extends Record<string, unknown> {
  /** The position of `after_id` if it is another task of the column. */
  after: string | null;
  /** The position of `before_id` if it is another task of the column. */
  before: string | null;
  /** The column's first position after `after`. */
  after_next: string | null;
  /** The column's last position before `before`, or its very last when no `before_id` was named. */
  before_previous: string | null;
}

/**
 * The positions a move of the task `taskId` into the column `status` lands between, in one statement by
 * the task's id, so that it can be sent before the task is read.
 */
export async function selectNeighbourPositions(
  sql: Sql,
  taskId: string,
  status: TaskStatus,
  afterId: string | null,
  beforeId: string | null,
): Promise<NeighbourPositions> {
  const [row] = await sql.query<NeighbourPositions>(
    `with moved as (select id, project_id from public.tasks where id = $1),
     neighbours as (
       select (select c.position from public.tasks c
               where c.project_id = moved.project_id and c.status = $2 and c.id = $3 and c.id <> moved.id) as after,
              (select c.position from public.tasks c
               where c.project_id = moved.project_id and c.status = $2 and c.id = $4 and c.id <> moved.id) as before,
              moved.id, moved.project_id
       from moved)
     select n.after, n.before,
       (select c.position from public.tasks c
        where c.project_id = n.project_id and c.status = $2 and c.position > n.after and c.id <> n.id
        order by c.position limit 1) as after_next,
       (select c.position from public.tasks c
        where c.project_id = n.project_id and c.status = $2 and c.id <> n.id
          and ($4::uuid is null or c.position < n.before)
        order by c.position desc limit 1) as before_previous
     from neighbours n`,
    [taskId, status, afterId, beforeId],
  );
  return row ?? { after: null, before: null, after_next: null, before_previous: null };
}

/**
 * The column's last position before `position` (its very last when `position` is null), leaving
 * `exceptId` out; null when there is none.
 */
export async function selectPositionBefore(
  sql: Sql,
  projectId: string,
  status: TaskStatus,
  position: string | null,
  exceptId: string | null,
): Promise<string | null> {
  const [row] = await sql.query<{ position: string }>(
    `select position from public.tasks
     where project_id = $1 and status = $2 and ($3::text is null or position < $3::text)
       and ($4::uuid is null or id <> $4::uuid)
     order by position desc limit 1`,
    [projectId, status, position, exceptId],
  );
  return row?.position ?? null;
}

/** The column's tasks but `exceptId`, in order, and the column's last key (`exceptId`'s included). */
export async function selectColumnOrder(
  sql: Sql,
  projectId: string,
  status: TaskStatus,
  exceptId: string,
): Promise<{ ids: string[]; last: string | null }> {
  const [row] = await sql.query<{ ids: string[]; last: string | null }>(
    `select coalesce(array_agg(id order by position) filter (where id <> $3), '{}') as ids,
       max(position) as last
     from public.tasks where project_id = $1 and status = $2`,
    [projectId, status, exceptId],
  );
  return row ?? { ids: [], last: null };
}

/**
 * Sets the positions of the project's tasks `ids` to `positions`, one for one, in one statement.
 * `projectKey` names the project in a refusal.
 */
export async function updatePositions(
  sql: Sql,
  projectId: string,
  ids: readonly string[],
  positions: readonly string[],
  projectKey: string,
): Promise<void> {
  await refusing(
    sql.query(
      `update public.tasks t set position = v.position
       from unnest($2::uuid[], $3::text[]) as v (id, position)
       where t.project_id = $1 and t.id = v.id`,
      [projectId, ids, positions],
    ),
    taskWriteRefusals(projectKey),
  );
}

/**
 * Puts the task in `status` at `position` if it is at an expected version; undefined when no row changed.
 * `projectKey` names the task's project in a refusal.
 */
export async function moveTask(
  sql: Sql,
  id: string,
  status: TaskStatus,
  position: string,
  expected: ExpectedVersion,
  projectKey: string,
): Promise<Task | undefined> {
  const [row] = await refusing(
    sql.query<{ task: Task }>(
      `update public.tasks t set status = $2, position = $3
       where id = $1 and ($4::integer[] is null or version = any($4::integer[]))
       returning private.task_json(t) as task`,
      [id, status, position, expected],
    ),
    taskWriteRefusals(projectKey),
  );
  return row?.task;
}

/**
 * moveTask with the landing found in the same statement, so that the move needs nothing read first: the
 * task goes into the gap `placement` names (board-placement.ts's gapOf, in SQL), at the key
 * private.order_key_between gives it, if it is at an expected version. No row changes when a neighbour
 * named is not one, when the task is in the gap already, or when the key would be longer than
 * `longestKey` (the column needs rebalancing first); the caller tells which from its own reads.
 * Sent before the task's project is known, it leaves the database's refusals to the caller
 * (taskWriteRefusals). Each shape of placement is a statement of its own: one with every shape's
 * branches would be planned anew for each call, its parameters deciding which branches run.
 */
export async function moveTaskBetweenNeighbours(
  sql: Sql,
  id: string,
  placement: { status: TaskStatus; afterId: string | null; beforeId: string | null },
  expected: ExpectedVersion,
  longestKey: number,
): Promise<Task | undefined> {
  const { afterId, beforeId } = placement;
  const neighbourIds = [afterId, beforeId].filter((neighbourId) => neighbourId !== null);
  const [row] = await sql.query<{ task: Task }>(
    `with moved as (
       select t.id, t.project_id, t.status, t.position from public.tasks t where t.id = $1),
     ${gapSql(afterId !== null, beforeId !== null)},
     landing as (
       select g.id, private.order_key_between(g.lower, g.upper) as position
       from gap g
       where not (g.status = $2 and (g.lower is null or g.lower < g.position)
                  and (g.upper is null or g.position < g.upper)))
     update public.tasks t set status = $2, position = landing.position
     from landing
     where t.id = landing.id and char_length(landing.position) <= $4
       and ($3::integer[] is null or t.version = any($3::integer[]))
     returning private.task_json(t) as task`,
    [id, placement.status, expected, longestKey, ...neighbourIds],
  );
  return row?.task;
}

/** The position of the column's task `$n` (`moved` left out), in moveTaskBetweenNeighbours. */
const neighbourPosition = (param: string): string =>
  `(select c.position from public.tasks c
    where c.project_id = m.project_id and c.status = $2 and c.id = ${param} and c.id <> m.id)`;

/**
 * The CTE `gap` (id, status, position, lower, upper) of moveTaskBetweenNeighbours: the keys the task
 * lands between, as gapOf finds them; no row when a neighbour named is not one, or they are out of order.
 */
function gapSql(after: boolean, before: boolean): string {
  const nextAfter = `(select c.position from public.tasks c
      where c.project_id = n.project_id and c.status = $2 and c.position > n.after and c.id <> n.id
      order by c.position limit 1)`;
  const lastBefore = (bound: string) => `(select c.position from public.tasks c
      where c.project_id = n.project_id and c.status = $2 and c.id <> n.id ${bound}
      order by c.position desc limit 1)`;
  if (after && before) {
    return `neighbours as (select m.*, ${neighbourPosition('$5')} as after, ${neighbourPosition('$6')} as before
       from moved m),
     gap as (select n.id, n.status, n.position, n.after as lower, ${nextAfter} as upper
       from neighbours n where n.after < n.before)`;
  }
  if (after) {
    return `neighbours as (select m.*, ${neighbourPosition('$5')} as after from moved m),
     gap as (select n.id, n.status, n.position, n.after as lower, ${nextAfter} as upper
       from neighbours n where n.after is not null)`;
  }
  if (before) {
    return `neighbours as (select m.*, ${neighbourPosition('$5')} as before from moved m),
     gap as (select n.id, n.status, n.position, ${lastBefore('and c.position < n.before')} as lower,
       n.before as upper
       from neighbours n where n.before is not null)`;
  }
  return `neighbours as (select m.* from moved m),
     gap as (select n.id, n.status, n.position, ${lastBefore('')} as lower, null::text as upper
       from neighbours n)`;
}
