import { ApiError } from '../api/api-error.ts';
import { positionAfter, positionBefore, stepFor, type FeedPosition } from './feed-position.ts';
import type { LiveChange, LiveEvent } from './live-event.ts';
import { seqRangeOf, type ChangeMessage, type LiveMessage } from './live-message.ts';

/** One page of the change feed, its events already turned into LiveChanges. */
export interface FeedPage {
  events: LiveChange[];
  next_cursor: string;
  has_more: boolean;
}

export interface LiveSyncOptions {
  /** Brings the cache up to date with one event (version checks make applying one twice harmless). */
  apply: (event: LiveEvent) => void;
  /** listWorkspaceEvents `?after=cursor`. */
  readAfter: (cursor: string) => Promise<FeedPage>;
  /** Reads again everything cached before `time` (ms): when there is no feed position to read on from. */
  refreshSince: (time: number) => Promise<unknown>;
  /** Whether the cache holds the changed resource at the message's version already (an echo of this tab). */
  holds: (message: ChangeMessage) => boolean;
  /** The feed refused this person (removed from the workspace, or it now requires MFA). */
  refused: () => void;
  now?: () => number;
}

/**
 * Keeps the cache gap-free and reads every change through the API: a message of the channel only says
 * that the feed moved, and the change feed is read from the last position applied until it is caught up,
 * its events applied in order. Reads are coalesced: one at a time, and another after it only when a
 * message told of an event it may have missed; a burst of messages is one or two reads, whatever its size.
 * Without a read: a message about the very next event whose resource the cache holds at that version
 * already (this tab's own change coming back), and a `bulk` message that is the next (it names what to
 * read again). After every (re)join the feed is read too; before the first message there is no position,
 * so the first join reads again what was cached before it, and the first message starts the position just
 * before itself. A join during a read (or replication becoming ready) reads once more after it. A read the
 * API refuses (403, 404) stops the reads until the channel joins again.
 */
export function createLiveSync(options: LiveSyncOptions) {
  const now = options.now ?? Date.now;
  let position: FeedPosition | null = null;
  /** The last seq a message told of: reads go on until the position reaches it. */
  let announced = 0;
  let running: Promise<void> | null = null;
  /** A (re)join during a read: what was committed before it may be past where that read looked. */
  let readAgain = false;
  let stopped = false;
  let refused = false;

  const catchUp = (): Promise<void> => {
    running ??= (async () => {
      // Again after a join during the read, and while a message told of an event the read may have started
      // too early to see; never again after a read that moved nothing (the feed has no such event).
      let before: number;
      let again: boolean;
      do {
        readAgain = false;
        before = position?.seq ?? 0;
        await readToTheEnd();
        again = readAgain || (position !== null && position.seq < announced && position.seq > before);
      } while (!stopped && !refused && position !== null && again);
    })()
      .catch((error: unknown) => {
        if (!isRefusal(error)) return options.refreshSince(now());
        refused = true;
        options.refused();
      })
      .then(() => undefined)
      .finally(() => {
        running = null;
      });
    return running;
  };

  const readToTheEnd = async () => {
    let page: FeedPage;
    do {
      if (stopped || position === null) return;
      page = await options.readAfter(position.cursor);
      if (stopped) return;
      let seq = position.seq;
      for (const event of page.events) {
        if (event.seq <= seq) continue;
        options.apply(event);
        seq = event.seq;
      }
      position = { seq, cursor: page.next_cursor };
    } while (page.has_more);
  };

  /** Takes a message without reading the feed, when it is safe to; says whether it did. */
  const takeWithoutRead = (message: LiveMessage): boolean => {
    if (message.kind === 'bulk') options.apply(message);
    else if (!options.holds(message)) return false;
    position = positionAfter(message);
    return true;
  };

  return {
    /** A message of the channel arrived. */
    receive(message: LiveMessage): void {
      if (stopped || refused) return;
      position ??= positionBefore(message);
      const step = stepFor(position, message);
      if (step === 'skip') return;
      announced = Math.max(announced, seqRangeOf(message).last);
      if (step === 'next' && !running && takeWithoutRead(message)) return;
      void catchUp();
    },
    /** The channel (re)joined: whatever happened while it was not joined is read now. */
    joined(): Promise<unknown> {
      if (stopped) return Promise.resolve();
      refused = false;
      if (position === null) return options.refreshSince(now());
      if (running) readAgain = true;
      return catchUp();
    },
    stop(): void {
      stopped = true;
    },
    /** For tests: where the cache is. */
    position: (): FeedPosition | null => position,
  };
}

/** The API's answer to someone who may no longer read the workspace: not found, or forbidden (MFA). */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}
