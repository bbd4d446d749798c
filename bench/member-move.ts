/**
 * A task move as the signed-in member, under RLS, with the statement the API's move runs
 * (`private.move_task`), through the API's driver module, in a transaction of its own:
 * at its COMMIT the database broadcasts the move's event on `workspace:<id>`. The realtime rows time
 * from that COMMIT's return; the API move cannot be the subject, since its COMMIT returns inside the
 * function and the message may be here before its HTTP answer.
 */
import type { Task, TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { Database } from '../supabase/functions/_shared/db.ts';
import type { Principal } from '../supabase/functions/_shared/principal.ts';
import { moveTask } from '../supabase/functions/api/tasks/task-moves.queries.ts';
import { selectFirstTaskId } from './member-move.queries.ts';

export interface MemberMove {
  projectId: string;
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
  const { projectId, taskId, status } = move;
  return db.asCaller(principal, async (sql) => {
    const beforeId = move.to === 'top' ? await selectFirstTaskId(sql, projectId, status, taskId) : null;
    const task = await moveTask(sql, taskId, { status, afterId: null, beforeId }, null, false);
    beforeCommit(task);
    return task;
  });
}

/** Each call answers the next of the two values, in turn. */
export function alternating<T>(values: readonly [T, T]): () => T {
  let turn = 0;
  return () => values[turn++ % 2] as T;
}
