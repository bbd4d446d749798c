/**
 * What pg_cron and pg_net do on hosted Supabase (docs/deploy.md#7a-schedule-the-notification-mail), done by the stand-in:
 * asks the API to send the notification mail that is due (POST /v1/internal/notification-mail, with the
 * project's secret key) every interval, as the scheduler of a hosted project does every minute.
 */

export interface NotificationMailSchedulerOptions {
  /** The function's address, `…/functions/v1/api`. */
  apiUrl: string;
  secretKey: string;
  intervalMs: number;
  /** One line per run that failed; a run that sent nothing says nothing. */
  log: (line: string) => void;
}

export interface NotificationMailScheduler {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startNotificationMailScheduler({
  apiUrl,
  secretKey,
  intervalMs,
  log,
}: NotificationMailSchedulerOptions): NotificationMailScheduler {
  let running: Promise<void> | undefined;
  const run = async () => {
    try {
      const response = await fetch(`${apiUrl}/v1/internal/notification-mail`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secretKey}` },
        signal: AbortSignal.timeout(Math.max(intervalMs, 10_000)),
      });
      const body = await response.text();
      if (!response.ok) log(`notification mail: the API answered ${response.status}`);
      else if (!/"queued":0,"sent":0/.test(body)) log(`notification mail: ${body}`);
    } catch (error) {
      // The next run tries again; an API that is down is reported by whatever else uses it.
      log(`notification mail: ${error instanceof Error ? error.message : String(error)}`);
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
