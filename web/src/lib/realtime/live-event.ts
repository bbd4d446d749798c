import * as z from 'zod/mini';

/**
 * One change in a workspace, as the database broadcasts it on `workspace:<id>` after the change commits
 * (docs/realtime.md), or as the web app rebuilds it from the change feed while catching up. `fields` holds
 * only small fields a viewer may read; a larger one (a description, a comment's body) is named in
 * `omitted` and must be read again.
 */
export interface LiveChange {
  kind: 'change';
  seq: number;
  /** The change feed's `after` cursor that continues right after this event. */
  cursor: string | null;
  type: string;
  project_id: string | null;
  task_id: string | null;
  /** The task, comment, label or project changed, or the member's user id. */
  resource_id: string | null;
  /** The resource's version after the change. */
  version: number | null;
  actor_id: string | null;
  fields: Readonly<Record<string, unknown>>;
  omitted: readonly string[];
}

/** More than a few changes in one transaction (a label removed from 200 tasks): refetch, do not patch. */
export interface LiveBulk {
  kind: 'bulk';
  seq_from: number;
  seq_to: number;
  cursor: string | null;
  types: readonly string[];
  project_ids: readonly string[];
}

export type LiveEvent = LiveChange | LiveBulk;

const seq = z.number().check(z.int(), z.minimum(1));
const nullableId = z._default(z.nullable(z.string()), null);
const cursor = z._default(z.nullable(z.string().check(z.minLength(1))), null);
const names = z._default(z.array(z.string()), []);

const changeSchema = z.object({
  seq,
  cursor,
  type: z.string().check(z.minLength(1)),
  project_id: nullableId,
  task_id: nullableId,
  resource_id: nullableId,
  version: z._default(z.nullable(z.number().check(z.int())), null),
  actor_id: nullableId,
  fields: z._default(z.record(z.string(), z.unknown()), {}),
  omitted: names,
});

const bulkSchema = z.object({
  type: z.literal('bulk'),
  seq_from: seq,
  seq_to: seq,
  cursor,
  types: names,
  project_ids: names,
});

/** The broadcast's payload as a LiveEvent, or null when it is not one (a newer format, a stray message). */
export function parseLiveEvent(payload: unknown): LiveEvent | null {
  const bulk = bulkSchema.safeParse(payload);
  if (bulk.success) {
    const { type: _bulk, ...range } = bulk.data;
    return { kind: 'bulk', ...range };
  }
  const change = changeSchema.safeParse(payload);
  return change.success ? { kind: 'change', ...change.data } : null;
}
