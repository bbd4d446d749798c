/**
 * A task's watchers (docs/notifications.md): who hears of its new comments and status changes. Anyone
 * who can see the task sees them, and watches or stops watching it themselves, viewers too.
 */
import type { TaskWatchers } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import type { Principal } from '../../_shared/principal.ts';
import { readInTaskWorkspace } from '../tasks/task-access.ts';
import { deleteOwnWatch, insertOwnWatch, selectTaskWatchers, type WatcherRow } from './watchers.queries.ts';

/** What a watcher is called when their profile is gone. */
const FORMER_MEMBER = 'Former member';

export function listTaskWatchers(db: Database, principal: Principal, taskId: string): Promise<TaskWatchers> {
  return changeOwnWatch(db, principal, taskId, () => Promise.resolve());
}

export function watchTask(db: Database, principal: Principal, taskId: string): Promise<TaskWatchers> {
  return changeOwnWatch(db, principal, taskId, (sql) => insertOwnWatch(sql, taskId));
}

export function unwatchTask(db: Database, principal: Principal, taskId: string): Promise<TaskWatchers> {
  return changeOwnWatch(db, principal, taskId, (sql) => deleteOwnWatch(sql, taskId));
}

/**
 * One round trip: the task and its workspace (404, 403 MFA), the caller's change, then the watchers as
 * they are after it. A change to a task the caller cannot see touches no row (RLS), and is answered 404.
 */
function changeOwnWatch(
  db: Database,
  principal: Principal,
  taskId: string,
  change: (sql: Sql) => Promise<void>,
): Promise<TaskWatchers> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInTaskWorkspace(sql, principal, taskId, async (last) => {
      const [, rows] = await Promise.all([change(sql), selectTaskWatchers(asLastStatement(last), taskId)]);
      return rows;
    });
    return watchersOf(principal.user_id, taskId, found);
  });
}

function watchersOf(callerId: string, taskId: string, rows: readonly WatcherRow[]): TaskWatchers {
  return {
    object: 'list',
    task_id: taskId,
    watching: rows.some((row) => row.user_id === callerId),
    data: rows.map((row) => ({
      object: 'watcher',
      user_id: row.user_id,
      display_name: row.display_name ?? FORMER_MEMBER,
      watching_since: row.created_at.toISOString(),
    })),
  };
}
