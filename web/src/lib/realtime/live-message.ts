import * as z from 'zod/mini';
import type { LiveBulk } from './live-event.ts';

/**
 * A message of the workspace's channel about one change (docs/realtime.md): where it happened, what
 * kind, which version and which fields, never their values; the change itself is read from the feed.
 */
export interface ChangeMessage {
  kind: 'change';
  seq: number;
  /** The change feed's `after` cursor right after this event, and the one right before it. */
  cursor: string;
  previous_cursor: string;
  type: string;
  project_id: string | null;
  task_id: string | null;
  resource_id: string | null;
  version: number | null;
  actor_id: string | null;
  /** The names of the fields that changed. */
  changed: readonly string[];
}

/** A `bulk` message: a transaction's many changes, with the cursor before the first of them. */
export interface BulkMessage extends LiveBulk {
  previous_cursor: string;
}

export type LiveMessage = ChangeMessage | BulkMessage;

const seq = z.number().check(z.int(), z.minimum(1));
const nullableId = z._default(z.nullable(z.string()), null);
const cursor = z.string().check(z.minLength(1));
const names = z._default(z.array(z.string()), []);

const changeSchema = z.object({
  seq,
  cursor,
  previous_cursor: cursor,
  type: z.string().check(z.minLength(1)),
  project_id: nullableId,
  task_id: nullableId,
  resource_id: nullableId,
  version: z._default(z.nullable(z.number().check(z.int())), null),
  actor_id: nullableId,
  changed: names,
});

const bulkSchema = z.object({
  type: z.literal('bulk'),
  seq_from: seq,
  seq_to: seq,
  cursor,
  previous_cursor: cursor,
  types: names,
  project_ids: names,
});

/** The broadcast's payload as a LiveMessage, or null when it is not one (a newer format, a stray message). */
export function parseLiveMessage(payload: unknown): LiveMessage | null {
  const bulk = bulkSchema.safeParse(payload);
  if (bulk.success) {
    const { type: _bulk, ...range } = bulk.data;
    return { kind: 'bulk', ...range };
  }
  const change = changeSchema.safeParse(payload);
  return change.success ? { kind: 'change', ...change.data } : null;
}

/** The first and last seq of the feed a message tells of. */
export function seqRangeOf(message: LiveMessage): { first: number; last: number } {
  return message.kind === 'bulk'
    ? { first: message.seq_from, last: message.seq_to }
    : { first: message.seq, last: message.seq };
}
