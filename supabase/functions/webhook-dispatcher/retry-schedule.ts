/**
 * When a failed delivery is tried again (docs/webhooks.md#retries): after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h and 24 h, about three days in all, each wait shifted by up to a tenth either way so
 * that deliveries failed together do not all come back together. The first try goes at once.
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Tries in all: the first, then one after each delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

const JITTER = 0.1;

/**
 * How long to wait before the try after the `step`-th failure (1 for the first), or null when it was the
 * last. `random` is in [0, 1), as Math.random gives it.
 */
export function retryDelayMs(step: number, random: number): number | null {
  const delay = RETRY_DELAYS_MS[step - 1];
  if (delay === undefined) return null;
  return Math.round(delay * (1 - JITTER + 2 * JITTER * random));
}
