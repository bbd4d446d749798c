/**
 * Webhooks under faults (docs/webhooks.md, decision 0049): while clients create tasks through the real
 * API under Deno, the dispatcher function is killed mid-batch (SIGKILL) twice and PostgreSQL is killed
 * and restarted once. Afterwards every acknowledged task's event reaches the receiver on loopback, each
 * verified with the `standardwebhooks` package; none is lost, and a delivery sent twice carries the same
 * `webhook-id` and the same body. Time passing (a claim's lease, a retry's wait) is played by making the
 * remaining deliveries due, as the clock would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFunctionWorkers, type LocalFunctionWorkers } from '../../local/functions/function-workers.ts';
import { freePort } from '../../local/ports.ts';
import { startCluster, type RunningCluster } from '../../local/postgres/cluster.ts';
import { prepareDatabase } from '../../local/postgres/prepare-database.ts';
import { seedWorkspaceWithToken, sleep, untilAcknowledged, waitForHealth } from '../support/fault-load.ts';

const PROJECT_DIR = resolve(import.meta.dirname, '..', '..');
const SECRET_KEY = 'sb_secret_fault_webhooks';
const CLIENTS = 4;
/** How long the receiver takes to answer: long enough that a kill finds deliveries in flight. */
const RECEIVER_MS = 40;

interface Arrival {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('webhook deliveries survive a killed dispatcher and a database crash', () => {
  let dir: string;
  let dataDir: string;
  let port: number;
  let cluster: RunningCluster;
  let workers: LocalFunctionWorkers;
  let receiver: Server;
  let apiBase: string;
  let token: string;
  const arrivals: Arrival[] = [];
  const functionLog: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-fault-hooks-'));
    await chmod(dir, 0o755); // PostgreSQL runs as its own OS user when we are root.
    dataDir = join(dir, 'data');
    port = await freePort();
    cluster = await startCluster({ dataDir, port });
    await prepareDatabase(cluster.url(), PROJECT_DIR, { seed: false });
    token = await seedWorkspaceWithToken(cluster.url());
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        arrivals.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        setTimeout(() => response.writeHead(200).end(), RECEIVER_MS);
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    workers = await startFunctionWorkers({
      projectDir: PROJECT_DIR,
      env: {
        SUPABASE_URL: 'http://127.0.0.1:1',
        SUPABASE_DB_URL: cluster.url(),
        SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET_KEY }),
        APP_URL: 'http://localhost:5173',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_USER_PER_MINUTE: '1000000',
        TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
      },
      onLog: (_name, line) => functionLog.push(line),
    });
    apiBase = `http://127.0.0.1:${workers.portOf('api')}/api/v1`;
    await waitForHealth(apiBase);
  }, 180_000);

  afterAll(async () => {
    await workers?.stop();
    receiver?.closeAllConnections();
    receiver?.close();
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** pg_cron's call, as often as a test can afford; a dispatcher down or booting just misses it. */
  const poke = () =>
    fetch(`http://127.0.0.1:${workers.portOf('webhook-dispatcher')}/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET_KEY}` },
      signal: AbortSignal.timeout(2_000),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );

  test('every acknowledged event is delivered at least once, duplicates under the same webhook-id', async () => {
    const { address } = receiver.address() as AddressInfo & { address: string };
    const receiverUrl = `http://${address}:${(receiver.address() as AddressInfo).port}/hook`;
    const created = (await untilAcknowledged(() =>
      post(apiBase, token, '/workspaces/fault/webhooks', { url: receiverUrl, events: ['task.created'] }),
    )) as { secret: string };

    let running = true;
    const acknowledged: string[] = [];
    const client = async (index: number) => {
      for (let n = 0; running; n += 1) {
        const task = (await untilAcknowledged(() =>
          post(
            apiBase,
            token,
            '/workspaces/fault/projects/FLT/tasks',
            { title: `hook ${index}.${n}` },
            `c${index}-${n}`,
          ),
        )) as { id: string };
        acknowledged.push(task.id);
      }
    };
    const poking = (async () => {
      while (running) {
        void poke();
        await sleep(100);
      }
    })();
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

    await sleep(2_000);
    await workers.killAndRestart('webhook-dispatcher');
    await sleep(2_000);
    cluster.killNow();
    await sleep(2_000);
    cluster = await startCluster({ dataDir, port });
    await sleep(2_000);
    await workers.killAndRestart('webhook-dispatcher');
    await sleep(3_000);
    running = false;
    await Promise.all([...clients, poking]);

    // Drain: the clock runs on (leases end, retries come due) until nothing is left to send.
    const deadline = Date.now() + 90_000;
    while ((await undelivered(cluster.url())) > 0) {
      if (Date.now() > deadline) throw new Error(`${await undelivered(cluster.url())} deliveries never went`);
      await makeEverythingDue(cluster.url());
      await poke();
      await sleep(500);
    }
    await sleep(RECEIVER_MS * 3);

    const verifier = new StandardWebhook(created.secret);
    const eventOf = new Map<string, string>();
    const bodyOf = new Map<string, string>();
    for (const arrival of arrivals) {
      const id = String(arrival.headers['webhook-id']);
      const payload = verifier.verify(arrival.body, {
        'webhook-id': id,
        'webhook-timestamp': String(arrival.headers['webhook-timestamp']),
        'webhook-signature': String(arrival.headers['webhook-signature']),
      }) as { data: { id: string; task_id: string } };
      expect(bodyOf.get(id) ?? arrival.body).toBe(arrival.body);
      bodyOf.set(id, arrival.body);
      expect(eventOf.get(payload.data.task_id) ?? id).toBe(id);
      eventOf.set(payload.data.task_id, id);
    }
    const missing = acknowledged.filter((taskId) => !eventOf.has(taskId));
    expect(missing).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);
    console.info(
      `webhook fault test: ${acknowledged.length} tasks acknowledged, ${arrivals.length} deliveries received ` +
        `(${arrivals.length - bodyOf.size} sent again under the same webhook-id), none missing`,
    );
  }, 240_000);
});

async function post(
  base: string,
  token: string,
  path: string,
  body: unknown,
  idempotencyKey?: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function withDb<T>(url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

const undelivered = (url: string) =>
  withDb(url, async (db) => {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.webhook_deliveries where status <> 'succeeded'`,
    );
    return rows[0]?.n ?? 0;
  });

const makeEverythingDue = (url: string) =>
  withDb(url, (db) =>
    db.query(
      `update public.webhook_deliveries set next_attempt_at = now() - interval '1 second'
       where status in ('pending', 'retrying')`,
    ),
  );
