import { stepFor, type FeedPosition } from './feed-position.ts';
import type { LiveChange, LiveEvent } from './live-event.ts';

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
  now?: () => number;
}

/**
 * Keeps the cache gap-free: applies broadcast events in feed order, and after every (re)join, or when an
 * event shows one was missed, reads the change feed from the last position applied until it is caught up.
 * Before the first event there is no position: the first join then re-reads what was cached before it
 * (the screens read their data just before the channel joined), and the first event's cursor starts it.
 */
export function createLiveSync(options: LiveSyncOptions) {
  const now = options.now ?? Date.now;
  let position: FeedPosition | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const catchUp = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await readToTheEnd();
      } while (again && !stopped);
    })()
      .catch(() => options.refreshSince(now()))
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

  return {
    /** A broadcast arrived. */
    receive(event: LiveEvent): void {
      if (stopped) return;
      const step = stepFor(position, event);
      if (step.kind === 'skip') return;
      options.apply(event);
      // While a catch-up reads, it will come to this event too: the position moves only through it.
      if (running) {
        again = true;
        return;
      }
      if (step.kind === 'gap') void catchUp();
      else position = step.position;
    },
    /** The channel (re)joined: whatever happened while it was not joined is read now. */
    joined(): Promise<unknown> {
      if (stopped) return Promise.resolve();
      if (position === null) return options.refreshSince(now());
      return catchUp();
    },
    stop(): void {
      stopped = true;
    },
    /** For tests: where the cache is. */
    position: (): FeedPosition | null => position,
  };
}
