/**
 * Row o: how soon an integrator hears of a change. The subject is a task created through the API, from
 * the request sent to its webhook delivery arriving at a receiver on loopback and verified there with
 * the `standardwebhooks` package; the baseline is the same request's own answer, the floor the delivery
 * cannot beat. The delivery leaves because the API wakes the dispatcher after the commit (the schedule
 * is a minute away), so the target is absolute: p50 ≤ 1 s, as an integrator polling would never manage.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { BenchStack } from './bench-stack.ts';
import { httpClient } from './http-client.ts';
import type { Rounds } from './interleaved.ts';
import { latencyOf } from './latency.ts';
import { API_PREFIX } from './list-overhead.ts';
import type { BenchRow } from './rows.ts';
import { countDeliveries, deleteWebhook, insertBenchWebhook } from './webhook-delivery.queries.ts';

/** A delivery not here by then is a failure of the row, not a slow sample. */
const ARRIVAL_TIMEOUT_MS = 30_000;
/** Timed deliveries at most, and warm-up ones. */
const MEASURED_MAX = 1_000;
const WARMUP_MAX = 50;

interface Receiver {
  url: string;
  /** Resolves with the arrival time of the delivery about `taskId`, verified. */
  arrivalOf(taskId: string): Promise<number>;
  close(): Promise<void>;
}

export async function measureWebhookDelivery(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  let secret = '';
  const receiver = await startReceiver(() => secret);
  const webhook = await insertBenchWebhook(stack.owner.statements, stack.seeded.slug, receiver.url);
  secret = webhook.secret;
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
    const arrived = await receiver.arrivalOf(id);
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
    const counts = await settledDeliveries(stack, webhook.id);
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
 * The webhook's deliveries by status, once the last one's success is recorded: the receiver has it a
 * moment before the dispatcher writes down its answer.
 */
async function settledDeliveries(stack: BenchStack, webhookId: string): Promise<Record<string, number>> {
  const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
  for (;;) {
    const counts = await countDeliveries(stack.owner.statements, webhookId);
    const unsettled = (counts['pending'] ?? 0) + (counts['retrying'] ?? 0);
    if (unsettled === 0 || Date.now() > deadline) return counts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startReceiver(secretOf: () => string): Promise<Receiver> {
  const waiting = new Map<string, (at: number) => void>();
  const arrived = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const taskId = verifiedTaskId(secretOf(), request.headers, Buffer.concat(chunks).toString('utf8'));
      response.writeHead(taskId ? 204 : 400).end();
      if (!taskId) return;
      arrived.set(taskId, at);
      waiting.get(taskId)?.(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasklane`,
    arrivalOf: (taskId) =>
      new Promise((resolve, reject) => {
        const already = arrived.get(taskId);
        if (already !== undefined) return resolve(already);
        const timer = setTimeout(() => reject(new Error(`no delivery for ${taskId}`)), ARRIVAL_TIMEOUT_MS);
        waiting.set(taskId, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The task the delivery is about, once its signature checks out; null otherwise. */
function verifiedTaskId(secret: string, headers: IncomingHttpHeaders, body: string): string | null {
  try {
    const payload = new StandardWebhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    }) as { data?: { task_id?: string } };
    return payload.data?.task_id ?? null;
  } catch {
    return null;
  }
}

export function describeWebhookDeliveryMethod(rounds: Rounds): string {
  return (
    `row o creates tasks through the API one at a time, ${Math.min(rounds.warmup, WARMUP_MAX)} warm-up then up ` +
    `to ${Math.min(rounds.measured, MEASURED_MAX).toLocaleString('en')} timed, each waiting for its webhook delivery at a receiver on ` +
    `loopback (the dispatcher woken by the API; its schedule a minute away)`
  );
}
