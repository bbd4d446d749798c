/**
 * What pg_cron and pg_net do on hosted Supabase (docs/deploy.md#7a-schedule-the-notification-mail,
 * docs/webhooks.md#how-a-delivery-leaves), done by the stand-in: a POST with the project's secret key
 * to a function's address every interval, as a hosted project's schedule does every minute.
 */

export interface ScheduledCallOptions {
  /** What is called, for the log: `notification mail`, `webhook dispatcher`. */
  name: string;
  url: string;
  secretKey: string;
  intervalMs: number;
  /** One line per run that failed, or whose answer `isNews`. */
  log: (line: string) => void;
  /** Whether a successful answer is worth a line (a run that did nothing says nothing). */
  isNews?: (body: string) => boolean;
}

export interface ScheduledCall {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startScheduledCall({
  name,
  url,
  secretKey,
  intervalMs,
  log,
  isNews = () => false,
}: ScheduledCallOptions): ScheduledCall {
  let running: Promise<void> | undefined;
  const run = async () => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secretKey}` },
        signal: AbortSignal.timeout(Math.max(intervalMs, 10_000)),
      });
      const body = await response.text();
      if (!response.ok) log(`${name}: the function answered ${response.status}`);
      else if (isNews(body)) log(`${name}: ${body}`);
    } catch (error) {
      // The next run tries again; a function that is down is reported by whatever else uses it.
      log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // Runs never overlap: a tick during a slow run is skipped.
  const tick = () => {
    running ??= run().finally(() => (running = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
