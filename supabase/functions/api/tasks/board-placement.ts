/**
 * Where a task goes in a column (SPEC §2's drag and drop): positions are fractional-index keys
 * (`fractional-indexing`), compared character by character as Postgres compares them (`collate "C"`),
 * so a task lands between two others by taking a key between theirs and no other task is rewritten.
 * Each key taken inside a gap is longer than the gap's ends, so many moves into one gap grow the keys
 * towards position's 200 characters: past REBALANCE_ABOVE, the column's other tasks are given short
 * evenly spaced keys, in their order (each such task is moved, with its event), and the task lands
 * between its neighbours' new keys. Every function here runs under the column's lock (`lockColumn`), so the neighbours it reads are the
 * ones it lands between, and two placements never compute the same key.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  lockColumn,
  selectPositionAfter,
  selectPositionBefore,
  selectColumnOrder,
  selectPositionInColumn,
  updatePositions,
} from './tasks.queries.ts';
import type { TaskStatus } from './tasks.schemas.ts';

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

/** Takes the column's lock and answers the position after its last task: where new arrivals go. */
export async function endOfColumn(sql: Sql, projectId: string, status: TaskStatus): Promise<string> {
  await lockColumn(sql, projectId, status);
  return generateKeyBetween(await selectPositionBefore(sql, projectId, status, null, null), null);
}

/** The position after `last`, a column's last position (null for an empty column): where arrivals go. */
export const afterLast = (last: string | null): string => generateKeyBetween(last, null);

/**
 * The position that puts `task` where `placement` says, or null when it is there already. With both
 * neighbours, the task goes right after `afterId`: if others landed in that gap meanwhile, it goes
 * before them, still after `afterId` and before `beforeId`. The caller holds the column's lock.
 */
export async function positionFor(sql: Sql, task: PlacedTask, placement: Placement): Promise<string | null> {
  const [lower, upper] = await gapFor(sql, task, placement);
  const alreadyThere =
    task.status === placement.status &&
    (lower === null || lower < task.position) &&
    (upper === null || task.position < upper);
  if (alreadyThere) return null;
  const key = generateKeyBetween(lower, upper);
  if (key.length <= REBALANCE_ABOVE) return key;
  await rebalanceColumn(sql, task, placement.status);
  return generateKeyBetween(...(await gapFor(sql, task, placement)));
}

/** The keys `task` must land between, as the column is now (`task` left out): null for an end. */
async function gapFor(
  sql: Sql,
  task: PlacedTask,
  placement: Placement,
): Promise<[string | null, string | null]> {
  const after = placement.afterId ? await neighbour(sql, task, placement, 'after_id') : null;
  const before = placement.beforeId ? await neighbour(sql, task, placement, 'before_id') : null;
  if (after !== null && before !== null && after >= before) {
    throw placementRefused('before_id', 'must come after after_id in the column');
  }
  const { status } = placement;
  return after !== null
    ? [after, await selectPositionAfter(sql, task.project_id, status, after, task.id)]
    : [await selectPositionBefore(sql, task.project_id, status, before, task.id), before];
}

/**
 * Gives the column's tasks but `task` consecutive keys after the column's last key, in their order: all
 * new keys sort after every old one, so no write collides with a key not yet rewritten, and they are as
 * short as keys get. `task` keeps its key (and its version, which the move's If-Match is checked against).
 */
async function rebalanceColumn(sql: Sql, task: PlacedTask, status: TaskStatus): Promise<void> {
  const { ids, last } = await selectColumnOrder(sql, task.project_id, status, task.id);
  if (ids.length === 0) return;
  await updatePositions(sql, task.project_id, ids, generateNKeysBetween(last, null, ids.length));
}

/** The position of a neighbour named in the move: another task of the project, in the target column. */
async function neighbour(
  sql: Sql,
  task: PlacedTask,
  placement: Placement,
  field: 'after_id' | 'before_id',
): Promise<string> {
  const id = field === 'after_id' ? placement.afterId : placement.beforeId;
  const position =
    id && id !== task.id
      ? await selectPositionInColumn(sql, task.project_id, placement.status, id)
      : undefined;
  if (position !== undefined) return position;
  throw placementRefused(
    field,
    `must be the id of another task of this project in the column "${placement.status}"`,
  );
}

function placementRefused(field: 'after_id' | 'before_id', message: string): AppError {
  return new AppError('validation_failed', undefined, {
    errors: [{ path: `body.${field}`, code: 'not_a_neighbour', message }],
  });
}
