import type { LiveChange } from '../../../lib/realtime/live-event.ts';
import type { WorkspaceEvent } from '../api/read-events-after.ts';

/**
 * An event of the change feed as the cache applies it: `fields` the new values of what changed
 * (everything on a creation, nothing on a deletion), the names the workspace's messages give.
 */
export function liveChangeOf(event: WorkspaceEvent): LiveChange {
  const data = event.data as unknown as Record<string, unknown>;
  const created = /\.(created|added)$/.test(event.type);
  const changed = created ? Object.keys(data) : Object.keys(event.previous_attributes ?? {});
  const fields = Object.fromEntries(
    changed.filter((name) => !NOT_FIELDS.has(name)).map((name) => [name, data[name]]),
  );
  const version = data['version'];
  return {
    kind: 'change',
    seq: event.seq,
    type: event.type,
    project_id: event.project_id,
    task_id: event.task_id,
    resource_id: String(event.type.startsWith('member.') ? data['user_id'] : data['id']),
    version: typeof version === 'number' ? version : null,
    actor_id: event.actor.user_id,
    fields,
  };
}

/** Identity and bookkeeping: told at the top, or not at all, as in the broadcast. */
const NOT_FIELDS = new Set([
  'object',
  'id',
  'user_id',
  'workspace_id',
  'project_id',
  'task_id',
  'version',
  'created_at',
  'updated_at',
]);
