/**
 * Where a task goes in a column (SPEC §2's drag and drop): positions are fractional-index keys
 * (`fractional-indexing`), compared character by character as Postgres compares them (`collate "C"`),
 * so a task lands between two others by taking a key between theirs and no other task is rewritten.
 * Each key taken inside a gap is longer than the gap's ends, so many moves into one gap grow the keys
 * towards position's 200 characters: past REBALANCE_ABOVE, the column's other tasks are given short
 * evenly spaced keys, in their order (each such task is moved, with its event), and the task lands
 * between its neighbours' new keys. Every function here runs under the column's lock (`lockColumnOfTask`, `lockColumnEndAt`), so
 * the neighbours it reads are the ones it lands between, and two placements never compute the same key.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { selectColumnOrder, type NeighbourPositions } from './task-moves.queries.ts';
import type { TaskStatus } from '../../_shared/api-types.ts';

/**
 * The longest key a move takes without rebalancing its column: after some 300 moves into one gap, far
 * below position's 200 characters, and long enough that rebalancing (which rewrites the column) is rare.
 */
export const REBALANCE_ABOVE = 50;

/** Where a moved task should land: right after `afterId`, right before `beforeId`, or at the end. */
export interface Placement {
  status: TaskStatus;
  afterId?: string | null | undefined;
  beforeId?: string | null | undefined;
}

/** The task being placed, where it is now. */
export interface PlacedTask {
  id: string;
  project_id: string;
  status: TaskStatus;
  position: string;
}

/** The position after `last`, a column's last position (null for an empty column): where arrivals go. */
export const afterLast = (last: string | null): string => generateKeyBetween(last, null);

/** Where a moved task lands; `rebalanced`, when its column's other tasks had to take new keys first. */
export interface Landing {
  position: string;
  rebalanced: { ids: string[]; positions: string[] } | null;
}

/**
 * Where `task` lands for `placement`, between the neighbours read under the column's lock
 * (selectNeighbourPositions), or null when it is there already. With both neighbours, the task goes
 * right after `afterId`: if others landed in that gap meanwhile, it goes before them, still after
 * `afterId` and before `beforeId`. Only a column to rebalance costs a statement here (its order).
 */
export async function landingFor(
  sql: Sql,
  task: PlacedTask,
  placement: Placement,
  neighbours: NeighbourPositions,
): Promise<Landing | null> {
  const gap = gapOf(placement, neighbours);
  if (isAlreadyThere(task, placement, gap)) return null;
  const [lower, upper] = gap;
  const key = generateKeyBetween(lower, upper);
  if (key.length <= REBALANCE_ABOVE) return { position: key, rebalanced: null };
  const rebalanced = await rebalancedColumn(sql, task, placement.status);
  const [newLower, newUpper] = gapAmong(rebalanced, placement);
  return {
    position: generateKeyBetween(newLower, newUpper),
    rebalanced: rebalanced.ids.length > 0 ? rebalanced : null,
  };
}

/** Two keys of a column, either null for its end: what a task lands between. */
type Gap = [string | null, string | null];

/**
 * The keys `task` must land between, as the column is now (`task` left out): null for an end; `422`
 * when a neighbour named is not one. moveTaskBetweenNeighbours finds the same gap in SQL.
 */
function gapOf(placement: Placement, neighbours: NeighbourPositions): Gap {
  const after = placement.afterId ? neighbour(neighbours.after, placement, 'after_id') : null;
  const before = placement.beforeId ? neighbour(neighbours.before, placement, 'before_id') : null;
  if (after !== null && before !== null && after >= before) throw neighboursOutOfOrder();
  return after !== null ? [after, neighbours.after_next] : [neighbours.before_previous, before];
}

/** Whether `task` is in the gap already, so that placing it there changes nothing. */
const isAlreadyThere = (task: PlacedTask, placement: Placement, [lower, upper]: Gap): boolean =>
  task.status === placement.status &&
  (lower === null || lower < task.position) &&
  (upper === null || task.position < upper);

interface ColumnKeys {
  ids: string[];
  positions: string[];
}

/**
 * The column's tasks but `task`, in their order, with consecutive keys after the column's last key: all
 * new keys sort after every old one, so no write collides with a key not yet rewritten, and they are as
 * short as keys get. `task` keeps its key (and its version, which the move's If-Match is checked against).
 */
async function rebalancedColumn(sql: Sql, task: PlacedTask, status: TaskStatus): Promise<ColumnKeys> {
  const { ids, last } = await selectColumnOrder(sql, task.project_id, status, task.id);
  return { ids, positions: ids.length === 0 ? [] : generateNKeysBetween(last, null, ids.length) };
}

/** gapOf, in the column as rebalanced: only `task`, left out, keeps an old key there. */
function gapAmong(column: ColumnKeys, placement: Placement): Gap {
  const { ids, positions } = column;
  const indexOf = (id: string | null | undefined, field: 'after_id' | 'before_id'): number => {
    const index = id ? ids.indexOf(id) : -1;
    if (index < 0) throw notANeighbour(field, placement);
    return index;
  };
  const after = placement.afterId ? indexOf(placement.afterId, 'after_id') : null;
  const before = placement.beforeId ? indexOf(placement.beforeId, 'before_id') : null;
  if (after !== null && before !== null && after >= before) throw neighboursOutOfOrder();
  if (after !== null) return [positions[after] ?? null, positions[after + 1] ?? null];
  if (before !== null) return [positions[before - 1] ?? null, positions[before] ?? null];
  return [positions.at(-1) ?? null, null];
}

/** The position of a neighbour named in the move: another task of the project, in the target column. */
function neighbour(position: string | null, placement: Placement, field: 'after_id' | 'before_id'): string {
  if (position !== null) return position;
  throw notANeighbour(field, placement);
}

const notANeighbour = (field: 'after_id' | 'before_id', placement: Placement): AppError =>
  placementRefused(
    field,
    `must be the id of another task of this project in the column "${placement.status}"`,
  );

const neighboursOutOfOrder = (): AppError =>
  placementRefused('before_id', 'must come after after_id in the column');

function placementRefused(field: 'after_id' | 'before_id', message: string): AppError {
  return new AppError('validation_failed', undefined, {
    errors: [{ path: `body.${field}`, code: 'not_a_neighbour', message }],
  });
}
