/**
 * Row o: how soon an integrator hears of a change. The subject is a task created through the API, from
 * the request sent to its webhook delivery arriving at a receiver on loopback and verified there with
 * the `standardwebhooks` package; the baseline is the same request's own answer, the floor the delivery
 * cannot beat. The delivery leaves because the API wakes the dispatcher after the commit (the schedule
 * is a minute away), so the target is absolute: p50 ≤ 1 s, as an integrator polling would never manage.
 */
import type { BenchStack } from './bench-stack.ts';
import { httpClient } from './http-client.ts';
import type { Rounds } from './interleaved.ts';
import { latencyOf } from './latency.ts';
import { API_PREFIX } from './list-overhead.ts';
import type { BenchRow } from './rows.ts';
import { countDeliveries, deleteWebhook, insertBenchWebhook } from './webhook-delivery.queries.ts';
import { ARRIVAL_TIMEOUT_MS, startWebhookReceiver } from './webhook-receiver.ts';

/** Timed deliveries at most, and warm-up ones. */
const MEASURED_MAX = 1_000;
const WARMUP_MAX = 50;
const PATH = '/tasklane';

export async function measureWebhookDelivery(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const receiver = await startWebhookReceiver();
  const webhook = await insertBenchWebhook(stack.owner.statements, stack.seeded.slug, receiver.urlOf(PATH), [
    'task.created',
  ]);
  receiver.trust(PATH, webhook.secret);
  const api = httpClient(stack.standIn.apiUrl);
  const { slug, small } = stack.seeded;
  const createTask = async (n: number) => {
    const sent = performance.now();
    const body = await api.call({
      method: 'POST',
      path: `${API_PREFIX}/workspaces/${slug}/projects/${small.key}/tasks`,
      headers: { authorization: `Bearer ${stack.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Webhook bench ${n}` }),
      expectStatus: 201,
    });
    const answered = performance.now();
    const { id } = JSON.parse(body) as { id: string };
    const arrived = await receiver.arrivalOf(PATH, id);
    return { answer: answered - sent, arrival: arrived - sent };
  };
  try {
    const warmup = Math.min(rounds.warmup, WARMUP_MAX);
    const measured = Math.min(rounds.measured, MEASURED_MAX);
    progress(`o: ${warmup} + ${measured} tasks created, each until its webhook delivery arrives…`);
    for (let n = 0; n < warmup; n += 1) await createTask(n);
    const answers: number[] = [];
    const arrivals: number[] = [];
    const started = performance.now();
    for (let n = 0; n < measured; n += 1) {
      rounds.signal?.throwIfAborted();
      if (performance.now() - started > rounds.budgetSeconds * 1_000 * 2 && n > 0) break;
      const sample = await createTask(warmup + n);
      answers.push(sample.answer);
      arrivals.push(sample.arrival);
    }
    const latency = latencyOf(arrivals);
    const counts = await settledDeliveries(stack, [webhook.id]);
    return [
      {
        id: 'o',
        subject: 'task created → its webhook delivery verified at a receiver on loopback',
        latency,
        baseline: { name: "the same request's own 201", latency: latencyOf(answers) },
        ratio: latency.p50Ms / latencyOf(answers).p50Ms,
        target: { text: 'p50 ≤ 1,000 ms', value: latency.p50Ms, limit: 1_000 },
        requested: measured,
        note: `deliveries: ${Object.entries(counts)
          .map(([status, count]) => `${count} ${status}`)
          .join(', ')}`,
      },
    ];
  } finally {
    api.close();
    await deleteWebhook(stack.owner.statements, webhook.id);
    await receiver.close();
  }
}

/**
 * The webhooks' deliveries by status, once the last one's success is recorded: the receiver has it a
 * moment before the dispatcher writes down its answer.
 */
export async function settledDeliveries(
  stack: BenchStack,
  webhookIds: readonly string[],
): Promise<Record<string, number>> {
  const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
  for (;;) {
    const counts = await countDeliveries(stack.owner.statements, webhookIds);
    const unsettled = (counts['pending'] ?? 0) + (counts['retrying'] ?? 0);
    if (unsettled === 0 || Date.now() > deadline) return counts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function describeWebhookDeliveryMethod(rounds: Rounds): string {
  return (
    `row o creates tasks through the API one at a time, ${Math.min(rounds.warmup, WARMUP_MAX)} warm-up then up ` +
    `to ${Math.min(rounds.measured, MEASURED_MAX).toLocaleString('en')} timed, each waiting for its webhook delivery at a receiver on ` +
    `loopback (the dispatcher woken by the API; its schedule a minute away)`
  );
}
