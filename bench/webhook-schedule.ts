/**
 * Row o2: how soon an integrator hears of a change when nothing wakes the dispatcher, only its schedule
 * (pg_cron every minute on hosted, the stand-in's timer here). Tasks are changed one at a time straight
 * in the database, spread evenly over one period of the schedule so that each lands at a different
 * moment before the next run; each change's commit is timed to its delivery, verified at a receiver on
 * loopback. The target is the schedule's period and a second: no change waits for more than one run.
 */
import type { BenchStack } from './bench-stack.ts';
import type { Rounds } from './interleaved.ts';
import { latencyOf } from './latency.ts';
import type { BenchRow } from './rows.ts';
import { settledDeliveries } from './webhook-delivery.ts';
import { changeTasks, deleteWebhook, insertBenchWebhook, taskIdsOf } from './webhook-delivery.queries.ts';
import { ARRIVAL_TIMEOUT_MS, startWebhookReceiver } from './webhook-receiver.ts';

/** Changes timed at most. */
const MEASURED_MAX = 1_000;
const PATH = '/by-schedule';

export async function measureWebhookSchedule(
  stack: BenchStack,
  rounds: Rounds,
  scheduleMs: number,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const db = stack.owner.statements;
  const receiver = await startWebhookReceiver();
  const webhook = await insertBenchWebhook(db, stack.seeded.slug, receiver.urlOf(PATH), ['task.updated']);
  receiver.trust(PATH, webhook.secret);
  try {
    const taskIds = await taskIdsOf(db, stack.seeded.big.id, Math.min(rounds.measured, MEASURED_MAX));
    progress(
      `o2: ${taskIds.length} tasks changed over ${scheduleMs / 1000} s, delivered by the schedule alone…`,
    );
    const spacingMs = scheduleMs / taskIds.length;
    const started = performance.now();
    const waits: Promise<number>[] = [];
    for (const [n, taskId] of taskIds.entries()) {
      rounds.signal?.throwIfAborted();
      await sleepUntil(started + n * spacingMs);
      await changeTasks(db, [taskId]);
      const committed = performance.now();
      const arrival = receiver.arrivalOf(PATH, taskId, scheduleMs + ARRIVAL_TIMEOUT_MS);
      waits.push(arrival.then((at) => at - committed));
    }
    const latency = latencyOf(await Promise.all(waits));
    const counts = await settledDeliveries(stack, [webhook.id]);
    const limit = scheduleMs + 1_000;
    return [
      {
        id: 'o2',
        subject: `task changed, nothing waking the dispatcher → its delivery verified (schedule every ${scheduleMs / 1000} s)`,
        latency,
        baseline: null,
        ratio: null,
        target: { text: `p99 ≤ ${(limit / 1000).toLocaleString('en')} s`, value: latency.p99Ms, limit },
        requested: taskIds.length,
        note: `deliveries: ${Object.entries(counts)
          .map(([status, count]) => `${count} ${status}`)
          .join(', ')}`,
      },
    ];
  } finally {
    await deleteWebhook(db, webhook.id);
    await receiver.close();
  }
}

function sleepUntil(at: number): Promise<void> {
  const ms = at - performance.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

export function describeWebhookScheduleMethod(rounds: Rounds, scheduleMs: number): string {
  const count = Math.min(rounds.measured, MEASURED_MAX).toLocaleString('en');
  return (
    `row o2 changes up to ${count} tasks straight in the database, spread evenly over ${scheduleMs / 1000} s, ` +
    `the stand-in's timer calling the dispatcher every ${scheduleMs / 1000} s as pg_cron does on hosted`
  );
}
