/**
 * The fault test (a database crash under load): while 8 clients create and move tasks with Idempotency-Key
 * through the real API function under Deno, PostgreSQL is killed (immediate shutdown: no checkpoint, crash
 * recovery at the next start) and restarted, five times over; then every API connection is terminated at
 * once. Afterwards every write a client saw acknowledged is in the database exactly once, the API process
 * never died, requests during the outage failed fast with 503 and Retry-After, and latency is back to normal
 * soon after PostgreSQL is.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFunctionWorkers, type FunctionWorkers } from '../../local/functions/function-workers.ts';
import { freePort } from '../../local/ports.ts';
import { startCluster, type RunningCluster } from '../../local/postgres/cluster.ts';
import { prepareDatabase } from '../../local/postgres/prepare-database.ts';
import { seedWorkspaceWithToken, sleep, untilAcknowledged, waitForHealth } from '../support/fault-load.ts';

const PROJECT_DIR = resolve(import.meta.dirname, '..', '..');
const CLIENTS = 8;
const CRASHES = 5;
const BEFORE_CRASH_MS = 3_000;
const OUTAGE_MS = 3_000;
const AFTER_RESTART_MS = 8_000;
/** How soon after PostgreSQL is back latency must be normal again. */
const RECOVERY_MS = 5_000;

interface Observation {
  startedAt: number;
  ms: number;
  status: number;
  retryAfter: string | null;
}

/** When the fault struck, and when the database was back. */
interface FaultWindow {
  struckAt: number;
  recoveredAt: number;
}

interface Acknowledged {
  title: string;
  id: string;
  moved: boolean;
}

describe('PostgreSQL is killed and restarted under load', () => {
  let dir: string;
  let dataDir: string;
  let port: number;
  let cluster: RunningCluster;
  let workers: FunctionWorkers;
  let apiBase: string;
  let token: string;
  const functionLog: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-fault-'));
    await chmod(dir, 0o755); // PostgreSQL runs as its own OS user when we are root.
    dataDir = join(dir, 'data');
    port = await freePort();
    // Durable settings (the defaults): an acknowledged commit must survive the crash.
    cluster = await startCluster({ dataDir, port });
    await prepareDatabase(cluster.url(), PROJECT_DIR, { seed: false });
    token = await seedWorkspaceWithToken(cluster.url());
    workers = await startFunctionWorkers({
      projectDir: PROJECT_DIR,
      env: {
        SUPABASE_URL: 'http://127.0.0.1:1',
        SUPABASE_DB_URL: cluster.url(),
        SUPABASE_ANON_KEY: 'unused',
        SUPABASE_SERVICE_ROLE_KEY: 'unused',
        APP_URL: 'http://localhost:5173',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_USER_PER_MINUTE: '1000000',
      },
      onLog: (_name, line) => functionLog.push(line),
    });
    apiBase = `http://127.0.0.1:${workers.portOf('api')}/api/v1`;
    await waitForHealth(apiBase);
  }, 180_000);

  afterAll(async () => {
    const errors = functionLog.filter((line) => /"level":"error"/.test(line));
    if (errors.length > 0)
      console.info(`the API logged ${errors.length} errors:\n${errors.slice(0, 5).join('\n')}`);
    await workers?.stop();
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * One round: 8 clients create and move tasks while `fault` strikes; afterwards the invariants hold for
   * every write the clients saw acknowledged in this round.
   */
  async function underLoad(round: string, fault: () => Promise<FaultWindow>) {
    const observations: Observation[] = [];
    const acknowledged: Acknowledged[] = [];
    let running = true;
    const call = (path: string, body: unknown, key: string) =>
      observe(observations, `${apiBase}${path}`, token, body, key);

    const client = async (index: number) => {
      for (let n = 0; running; n += 1) {
        const title = `${round}: client ${index} task ${n}`;
        const created = await untilAcknowledged(() =>
          call('/workspaces/fault/projects/FLT/tasks', { title }, `${round}-create-${index}-${n}`),
        );
        const task: Acknowledged = { title, id: (created as { id: string }).id, moved: false };
        acknowledged.push(task);
        await untilAcknowledged(() =>
          call(`/tasks/${task.id}/move`, { status: 'in_progress' }, `${round}-move-${index}-${n}`),
        );
        task.moved = true;
      }
    };

    const started = Date.now();
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
    await sleep(BEFORE_CRASH_MS);
    const { struckAt, recoveredAt } = await fault();
    await sleep(AFTER_RESTART_MS);
    running = false;
    await Promise.all(clients);

    // The API process survived.
    expect(workers.portOf('api')).toBeDefined();
    expect((await fetch(`${apiBase}/health`)).status).toBe(200);
    expect(functionLog.join('\n')).not.toMatch(/uncaught|panicked/i);

    // Requests made while PostgreSQL was down failed fast with 503 and Retry-After.
    const duringOutage = observations.filter(
      (o) => o.startedAt >= struckAt + 100 && o.startedAt + o.ms < recoveredAt - 100,
    );
    for (const o of duringOutage) {
      expect(o.status).toBe(503);
      expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(o.ms).toBeLessThanOrEqual(2_000);
    }

    // Latency is back to normal within RECOVERY_MS of the restart.
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const before = observations.filter((o) => o.startedAt < struckAt && o.status < 300).map((o) => o.ms);
    const after = observations
      .filter((o) => o.startedAt >= recoveredAt + RECOVERY_MS && o.status < 300)
      .map((o) => o.ms);
    expect(after.length).toBeGreaterThan(20);
    expect(median(after)).toBeLessThanOrEqual(Math.max(3 * median(before), median(before) + 20));

    // Every acknowledged write is there exactly once.
    const stored = await tasksByTitle(cluster.url(), `${round}: `);
    for (const task of acknowledged) {
      expect(stored.get(task.title), task.title).toEqual([{ id: task.id, status: 'in_progress' }]);
    }
    expect([...stored.values()].flat()).toHaveLength(acknowledged.length);
    const failed = observations.filter((o) => o.status >= 500).length;
    console.info(
      `fault test, ${round}: ${acknowledged.length} tasks acknowledged in ${Date.now() - started} ms, ` +
        `${duringOutage.length} requests during the outage (all 503), ${failed} answered 5xx in all, ` +
        `median latency ${median(before)} ms before, ${median(after)} ms after recovery`,
    );
    return { duringOutage };
  }

  // The crash is repeated, each time from a running load: one recovery alone could succeed by luck.
  test.each(Array.from({ length: CRASHES }, (_, n) => n + 1))(
    'crash %i: no acknowledged write is lost or doubled, and the API fails fast and recovers',
    async (n) => {
      const { duringOutage } = await underLoad(`crash ${n}`, async () => {
        const struckAt = Date.now();
        cluster.killNow();
        await sleep(OUTAGE_MS);
        cluster = await startCluster({ dataDir, port });
        return { struckAt, recoveredAt: Date.now() };
      });
      expect(duringOutage.length).toBeGreaterThan(0);
    },
    120_000,
  );

  test('every API connection terminated at once: nothing lost or doubled, and the API carries on', async () => {
    await underLoad('terminated', async () => {
      const struckAt = Date.now();
      const terminated = await terminateOtherBackends(cluster.url());
      expect(terminated).toBeGreaterThan(0);
      return { struckAt, recoveredAt: Date.now() };
    });
  }, 120_000);
});

async function observe(
  observations: Observation[],
  url: string,
  token: string,
  body: unknown,
  key: string,
): Promise<{ status: number; body: unknown }> {
  const startedAt = Date.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  observations.push({
    startedAt,
    ms: Date.now() - startedAt,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
  });
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The tasks whose titles start with `prefix`, by title. */
async function tasksByTitle(
  url: string,
  prefix: string,
): Promise<Map<string, { id: string; status: string }[]>> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ title: string; id: string; status: string }>(
      'select title, id, status from public.tasks where starts_with(title, $1) order by title',
      [prefix],
    );
    const byTitle = new Map<string, { id: string; status: string }[]>();
    for (const row of rows)
      byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), { id: row.id, status: row.status }]);
    return byTitle;
  } finally {
    await db.end();
  }
}

/** Terminates every other client connection to the database (the API's); how many there were. */
async function terminateOtherBackends(url: string): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ terminated: number }>(
      `with others as materialized (
         select pid from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
       )
       select count(*)::int as terminated from others where pg_terminate_backend(pid)`,
    );
    return rows[0]?.terminated ?? 0;
  } finally {
    await db.end();
  }
}
