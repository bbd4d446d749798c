/**
 * What pg_cron does on hosted Supabase, done by the stand-in (whose PostgreSQL has no pg_cron): runs
 * `private.delete_expired_rows()` — events past 30 days, expired idempotency records, stale rate-limit
 * counters, tasks deleted more than 30 days ago — when the stack starts and then every hour
 * (supabase/migrations/…_schedule_housekeeping.sql, …_keep_deleted_tasks.sql).
 */
import { z } from 'zod';

export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

/** The part of local/db.ts's `Database.statements` this needs. */
export interface HousekeepingDatabase {
  query(text: string): Promise<{ rows: unknown[] }>;
}

export interface HousekeepingOptions {
  db: HousekeepingDatabase;
  /** One line per run that deleted something, or that failed. */
  log: (line: string) => void;
  intervalMs?: number;
}

export interface Housekeeping {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

const DeletedRows = z.array(z.object({ kind: z.string(), deleted: z.coerce.number() }));

export function startHousekeeping({
  db,
  log,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
}: HousekeepingOptions): Housekeeping {
  let running: Promise<void> | undefined;
  const run = async () => {
    try {
      const { rows } = await db.query('select kind, deleted from private.delete_expired_rows()');
      const deleted = DeletedRows.parse(rows).filter((row) => row.deleted > 0);
      if (deleted.length > 0) {
        log(`deleted expired rows: ${deleted.map((row) => `${row.deleted} ${row.kind}`).join(', ')}`);
      }
    } catch (error) {
      // The next run tries again; a database that is down is reported by whatever else uses it.
      log(`could not delete expired rows: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // Runs never overlap: a tick during a slow run is skipped.
  const tick = () => {
    running ??= run().finally(() => (running = undefined));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
