/**
 * Hosted's per-project message rate (realtime's tenants.ex events_per_second_rate, rate_counter.ex): every
 * message counts — each delivery to each subscriber, each broadcast a client sends, each database
 * broadcast — and every tick (hosted: 5 s) the count of the tick joins a window of the last 12 ticks
 * (a minute). The average per second over that window at or above the limit (the tenant's
 * max_events_per_second, 100 by default) triggers the limit; it holds until a tick finds the average
 * below the limit again. While it holds, database broadcasts are dropped and a channel that is delivered
 * a message is shut down with "Too many messages per second".
 */
export interface EventsRateLimit {
  maxEventsPerSecond: number;
  tickMs: number;
}

/** Hosted keeps the last 12 ticks (max_bucket_len): with its 5 s tick, the average of a minute. */
const WINDOW_TICKS = 12;
/**
 * Hosted's counter stops when its window has been all zeros at an idle check (every 5 min: 60 ticks of
 * 5 s) and starts afresh, with an empty window, at the next message.
 */
const IDLE_TICKS = 60;

export class EventsRate {
  private count = 0;
  private window: number[] = [];
  private idleTicks = 0;
  private timer: NodeJS.Timeout | undefined;
  triggered = false;
  /** The average per second over the window at the last tick. */
  average = 0;

  constructor(private readonly limit: EventsRateLimit) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.limit.tickMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  add(messages = 1): void {
    this.count += messages;
  }

  /** The average per second over the window, as the last tick computed it. */
  tick(): number {
    this.idleTicks = this.count === 0 ? this.idleTicks + 1 : 0;
    if (this.idleTicks >= IDLE_TICKS) {
      this.window = [];
      this.average = 0;
      return 0;
    }
    this.window = [this.count, ...this.window].slice(0, WINDOW_TICKS);
    this.count = 0;
    const sum = this.window.reduce((total, count) => total + count, 0);
    this.average = sum / this.window.length / (this.limit.tickMs / 1_000);
    this.triggered = this.average >= this.limit.maxEventsPerSecond;
    return this.average;
  }
}

/** What a channel shut down for the rate is told, in its `system` error. */
export const TOO_MANY_MESSAGES = 'Too many messages per second';

/**
 * Why the broadcast endpoints refuse a request with 429, or null (realtime's batch_broadcast.ex and
 * single_broadcast.ex check_rate_limit): the average at or over the limit (over it, for a batch), or a
 * batch that would take it over.
 */
export function httpRateRefusal(
  rate: EventsRate,
  limit: EventsRateLimit,
  batchSize: number | null,
): string | null {
  const over =
    batchSize === null ? rate.average >= limit.maxEventsPerSecond : rate.average > limit.maxEventsPerSecond;
  if (over) return 'You have exceeded your rate limit';
  if (batchSize !== null && rate.average + batchSize > limit.maxEventsPerSecond) {
    return 'Too many messages to broadcast, please reduce the batch size';
  }
  return null;
}
