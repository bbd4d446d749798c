import type { LiveEvent } from './live-event.ts';

/** How far into the workspace's change feed the cache is: the last event applied and where to read on. */
export interface FeedPosition {
  seq: number;
  cursor: string;
}

/** What to do with an event that arrives, given how far the cache is. */
export type FeedStep =
  /** Apply it; the cache is then at `position`. */
  | { kind: 'apply'; position: FeedPosition | null }
  /** Already applied (a catch-up read it first, or it came twice). */
  | { kind: 'skip' }
  /** Events before it were missed: apply it, and read the feed from the old position. */
  | { kind: 'gap' };

/**
 * Events are numbered per workspace in commit order, so the next one to apply is `seq + 1`. Before the
 * first event there is no position yet: whatever comes is taken as the start (the cache was read just
 * before). An event without a cursor applies but cannot move the position.
 */
export function stepFor(position: FeedPosition | null, event: LiveEvent): FeedStep {
  const first = event.kind === 'bulk' ? event.seq_from : event.seq;
  const last = lastSeqOf(event);
  const next = event.cursor === null ? position : { seq: last, cursor: event.cursor };
  if (position === null) return { kind: 'apply', position: next };
  if (last <= position.seq) return { kind: 'skip' };
  if (first > position.seq + 1) return { kind: 'gap' };
  return { kind: 'apply', position: next };
}

/** The last event of the feed a LiveEvent brings the reader to. */
export function lastSeqOf(event: LiveEvent): number {
  return event.kind === 'bulk' ? event.seq_to : event.seq;
}
