import { seqRangeOf, type LiveMessage } from './live-message.ts';

/** How far into the workspace's change feed the cache is: the last event applied and where to read on. */
export interface FeedPosition {
  seq: number;
  cursor: string;
}

/** What a message of the channel means, given how far the cache is. */
export type MessageStep =
  /** Its events are applied already (a read of the feed got them first, or it came twice). */
  | 'skip'
  /** It tells of the very next events: the cache may take it without reading the feed. */
  | 'next'
  /** Events before it were missed, or it is not the next: read the feed from the position. */
  | 'read';

/** Events are numbered per workspace in commit order, so the next one to apply is `seq + 1`. */
export function stepFor(position: FeedPosition, message: LiveMessage): MessageStep {
  const { first, last } = seqRangeOf(message);
  if (last <= position.seq) return 'skip';
  return first === position.seq + 1 ? 'next' : 'read';
}

/**
 * Where the cache stands when the first message arrives: just before it (the screens read their data
 * when the channel joined, and the join read again what was cached before it).
 */
export function positionBefore(message: LiveMessage): FeedPosition {
  return { seq: seqRangeOf(message).first - 1, cursor: message.previous_cursor };
}

/** Where the cache stands once the message's events are applied. */
export function positionAfter(message: LiveMessage): FeedPosition {
  return { seq: seqRangeOf(message).last, cursor: message.cursor };
}
