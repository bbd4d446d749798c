/**
 * A task move as the signed-in member, under RLS, with the statements the API's move runs (the column's
 * lock, the neighbour read, the update), through the API's driver module, in a transaction of its own:
 * at its COMMIT the database broadcasts the move's event on `workspace:<id>`. The realtime rows time
 * from that COMMIT's return; the API move cannot be the subject, since its COMMIT returns inside the
 * function and the message may be here before its HTTP answer.
 */
import { generateKeyBetween } from 'fractional-indexing';
import type { Task, TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { Database } from '../supabase/functions/_shared/db.ts';
import type { Principal } from '../supabase/functions/_shared/principal.ts';
import {
  lockColumn,
  moveTask,
  selectPositionBefore,
} from '../supabase/functions/api/tasks/task-moves.queries.ts';
import { selectFirstPosition } from './member-move.queries.ts';

export interface MemberMove {
  projectId: string;
  projectKey: string;
  taskId: string;
  status: TaskStatus;
  /** The column's end (row k), or its top (row l: where a board shows it without scrolling). */
  to: 'end' | 'top';
}

/** Moves the task; `beforeCommit` sees the moved task while the transaction is still open. */
export async function moveAsMember(
  db: Database,
  principal: Principal,
  move: MemberMove,
  beforeCommit: (task: Task) => void,
): Promise<Task> {
  const { projectId, projectKey, taskId, status } = move;
  return db.asCaller(principal, async (sql) => {
    await lockColumn(sql, projectId, status);
    const position =
      move.to === 'end'
        ? generateKeyBetween(await selectPositionBefore(sql, projectId, status, null, taskId), null)
        : generateKeyBetween(null, await selectFirstPosition(sql, projectId, status, taskId));
    const task = await moveTask(sql, taskId, status, position, null, projectKey);
    if (!task) throw new Error('the move changed no row');
    beforeCommit(task);
    return task;
  });
}

/** Each call answers the next of the two values, in turn. */
export function alternating<T>(values: readonly [T, T]): () => T {
  let turn = 0;
  return () => values[turn++ % 2] as T;
}
