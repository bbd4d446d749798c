/**
 * An event as the API answers it (openapi.yaml `Event`): from its row in public.events, read with
 * EVENT_COLUMNS. The feed, a task's activity and webhook deliveries all build it here, so they agree.
 */
import type { Event, EventActor, EventType } from '../api-types.ts';

type EventData = Event['data'];

export interface EventRow extends Record<string, unknown> {
  /** bigint, as text. */
  id: string;
  /** bigint, as text. */
  seq: string;
  workspace_id: string;
  project_id: string | null;
  task_id: string | null;
  actor_id: string | null;
  actor_api_token_id: string | null;
  type: string;
  data: EventData;
  previous_attributes: Record<string, unknown> | null;
  created_at: Date;
}

/** public.events `e`'s columns as EventRow has them. */
export const EVENT_COLUMNS = `e.id::text as id, e.seq::text as seq, e.workspace_id, e.project_id, e.task_id, e.actor_id,
  e.actor_api_token_id, e.type, e.data, e.previous_attributes, e.created_at`;

export function toEvent(row: EventRow): Event {
  return {
    object: 'event',
    id: row.id,
    seq: Number(row.seq),
    type: row.type as EventType,
    created_at: row.created_at.toISOString(),
    actor: actorOf(row),
    workspace_id: row.workspace_id,
    project_id: row.project_id,
    task_id: row.task_id,
    data: row.data,
    previous_attributes: row.previous_attributes,
  };
}

function actorOf(row: EventRow): EventActor {
  if (row.actor_id === null) return { type: 'system', user_id: null, api_token_id: null };
  if (row.actor_api_token_id !== null) {
    return { type: 'api_token', user_id: row.actor_id, api_token_id: row.actor_api_token_id };
  }
  return { type: 'user', user_id: row.actor_id, api_token_id: null };
}
