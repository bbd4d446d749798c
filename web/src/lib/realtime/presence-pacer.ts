/**
 * Hosted Realtime shuts a channel down after 5 presence messages of a client in 30 s ("Client presence
 * rate limit exceeded"): one message at most every 7 s stays under that in any window.
 */
export const PRESENCE_INTERVAL_MS = 7_000;

export interface Pacer {
  /** Something changed: send now if the last send is old enough, else once the interval is over. */
  request(): void;
  /** A new channel: its count starts again, so the next request sends at once. */
  reset(): void;
  stop(): void;
}

/**
 * Calls `send` at most once per interval. Requests meanwhile make one send at the end of the interval,
 * and `send` reads the latest state then, so the others learn where this person is last, not every
 * place on the way.
 */
export function createPacer(send: () => void, intervalMs = PRESENCE_INTERVAL_MS, now = Date.now): Pacer {
  let lastSent = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    lastSent = now();
    send();
  };
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    request() {
      if (timer !== undefined) return;
      const wait = lastSent + intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    reset() {
      stop();
      lastSent = Number.NEGATIVE_INFINITY;
    },
    stop,
  };
}
