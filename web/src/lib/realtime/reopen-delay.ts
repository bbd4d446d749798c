/** The first pause before joining again after the server closed the channel. */
const FIRST_MS = 1_000;
/** The longest: hosted's message rate is averaged over a minute, and lifts within one once quiet. */
const LONGEST_MS = 60_000;
/** A join that lasted this long was not closed by a limit still in force: the next close starts over. */
const STEADY_MS = 60_000;

/**
 * How long to wait before joining again after the server closed the channel (an expired token, the project's
 * message rate): 1 s, doubled after each close that follows a short join, at most a minute. A channel that
 * was joined for a minute before its close waits 1 s again.
 */
export function createReopenDelay(now: () => number = Date.now) {
  let closesInARow = 0;
  let joinedAt: number | null = null;
  return {
    joined(): void {
      joinedAt = now();
    },
    /** The pause before the next join, after a close. */
    next(): number {
      if (joinedAt !== null && now() - joinedAt >= STEADY_MS) closesInARow = 0;
      joinedAt = null;
      const delay = Math.min(FIRST_MS * 2 ** closesInARow, LONGEST_MS);
      closesInARow += 1;
      return delay;
    },
  };
}
