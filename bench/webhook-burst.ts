/**
 * Row o3: a burst. One transaction changes many tasks at once (as a bulk edit or an import would), each
 * change an event, each event heard by three webhooks; the dispatcher is woken once, as the API wakes it
 * after a commit, and the row times every delivery from the commit to its arrival, verified, at a
 * receiver on loopback, until the last. What the dispatcher costs the database is read from PostgreSQL's
 * own count of time spent running statements (`pg_stat_database.active_time`) over the drain, less the
 * burst's own transaction and the database's quiet rate measured just before: per delivery, it says how
 * far one database carries the outbox.
 */
import type { BenchStack } from './bench-stack.ts';
import type { Rounds } from './interleaved.ts';
import { latencyOf } from './latency.ts';
import type { BenchRow } from './rows.ts';
import { settledDeliveries } from './webhook-delivery.ts';
import {
  changeTasks,
  databaseActiveMs,
  deleteWebhook,
  insertBenchWebhook,
  STATISTICS_FLUSH_MS,
  taskIdsOf,
} from './webhook-delivery.queries.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';
import { readKeys } from '../local/keys.ts';

/** Events in the burst at most (five per timed round otherwise), and the webhooks hearing each. */
const EVENTS_MAX = 10_000;
const EVENTS_PER_ROUND = 5;
const PATHS = ['/burst-1', '/burst-2', '/burst-3'];
/** The whole burst must have arrived by then. */
const DRAIN_TIMEOUT_MS = 15 * 60_000;

interface ActiveTime {
  ms: number;
  at: number;
}

export async function measureWebhookBurst(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const db = stack.owner.statements;
  const receiver = await startWebhookReceiver();
  const webhookIds: string[] = [];
  try {
    for (const path of PATHS) {
      const webhook = await insertBenchWebhook(db, stack.seeded.slug, receiver.urlOf(path), ['task.updated']);
      receiver.trust(path, webhook.secret);
      webhookIds.push(webhook.id);
    }
    const events = Math.min(EVENTS_MAX, rounds.measured * EVENTS_PER_ROUND);
    const taskIds = await taskIdsOf(db, stack.seeded.big.id, events);
    const deliveries = taskIds.length * PATHS.length;
    progress(
      `o3: the database's quiet rate, then ${taskIds.length} events in one transaction to ${PATHS.length} webhooks…`,
    );
    const { rate: quietRate, until: before } = await quietActiveRate(stack);

    const writeStarted = performance.now();
    await changeTasks(db, taskIds);
    const committed = performance.now();
    await wakeDispatcher(stack);
    const arrivals = await Promise.all(
      PATHS.flatMap((path) => taskIds.map((taskId) => receiver.arrivalOf(path, taskId, DRAIN_TIMEOUT_MS))),
    );
    const drainedMs = Math.max(...arrivals) - committed;
    const counts = await settledDeliveries(stack, webhookIds);

    const after = await activeTimeAfterQuiet(stack);
    const dispatcherMs =
      after.ms - before.ms - (committed - writeStarted) - quietRate * (after.at - before.at);
    const perSecond = Math.round(deliveries / (drainedMs / 1000));
    return [
      {
        id: 'o3',
        subject: `${taskIds.length.toLocaleString('en')} events in one commit to ${PATHS.length} webhooks → each delivery verified`,
        latency: latencyOf(arrivals.map((at) => at - committed)),
        baseline: null,
        ratio: null,
        target: null,
        requested: deliveries,
        note:
          `drained in ${(drainedMs / 1000).toFixed(1)} s, ${perSecond.toLocaleString('en')} deliveries/s; ` +
          `the dispatcher's database time ${(dispatcherMs / deliveries).toFixed(2)} ms per delivery; deliveries: ` +
          Object.entries(counts)
            .map(([status, count]) => `${count} ${status}`)
            .join(', '),
      },
    ];
  } finally {
    for (const id of webhookIds) await deleteWebhook(db, id);
    await receiver.close();
  }
}

/**
 * The database's own activity while nothing is asked of it (the stand-in's timers, realtime), per ms,
 * and its active time at the end of that quiet.
 */
async function quietActiveRate(stack: BenchStack): Promise<{ rate: number; until: ActiveTime }> {
  const from = await activeTimeAfterQuiet(stack);
  const until = await activeTimeAfterQuiet(stack);
  return { rate: (until.ms - from.ms) / (until.at - from.at), until };
}

/** The database's active time once every session has had time to report it. */
async function activeTimeAfterQuiet(stack: BenchStack): Promise<ActiveTime> {
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_FLUSH_MS));
  return { ms: await databaseActiveMs(stack.owner.statements), at: performance.now() };
}

/** As the API does after a commit that queued deliveries. */
async function wakeDispatcher(stack: BenchStack): Promise<void> {
  const keys = await readKeys(stack.standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  const response = await fetch(`${stack.standIn.apiUrl}/functions/v1/webhook-dispatcher`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.secretKey}` },
  });
  await response.arrayBuffer();
  if (response.status !== 202) throw new Error(`the dispatcher answered ${response.status}`);
}

export function describeWebhookBurstMethod(rounds: Rounds): string {
  const events = Math.min(EVENTS_MAX, rounds.measured * EVENTS_PER_ROUND).toLocaleString('en');
  return (
    `row o3 changes up to ${events} tasks in one transaction, each change heard by ${PATHS.length} webhooks, ` +
    `wakes the dispatcher once and times each delivery from the commit; its database time is ` +
    `pg_stat_database's active time over the drain, less the burst's transaction and the quiet rate ` +
    `measured over the ${(2 * STATISTICS_FLUSH_MS) / 1000} s before`
  );
}
