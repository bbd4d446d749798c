/**
 * One change in a workspace as the web app applies it to its cache: an event of the change feed
 * (`GET /v1/workspaces/{slug}/events`), read after the workspace's channel said that the feed moved
 * (docs/realtime.md). `fields` holds the new values of the fields that changed, as the feed has them.
 */
export interface LiveChange {
  kind: 'change';
  seq: number;
  type: string;
  project_id: string | null;
  task_id: string | null;
  /** The task, comment, label or project changed, or the member's user id. */
  resource_id: string | null;
  /** The resource's version after the change. */
  version: number | null;
  actor_id: string | null;
  fields: Readonly<Record<string, unknown>>;
}

/**
 * More than a few changes in one transaction (a label removed from 200 tasks), as the channel's `bulk`
 * message tells them: what to read again, not how to patch.
 */
export interface LiveBulk {
  kind: 'bulk';
  seq_from: number;
  seq_to: number;
  /** The change feed's `after` cursor that continues right after the last of them. */
  cursor: string;
  types: readonly string[];
  project_ids: readonly string[];
}

export type LiveEvent = LiveChange | LiveBulk;
