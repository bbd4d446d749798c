/**
 * Row k: how soon a committed task move reaches everyone looking at the board. The subject: a move of a
 * task of the big project by the signed-in member (member-move.ts: the API's move statements, under RLS,
 * each move its own transaction); at its COMMIT the database broadcasts the move's event on
 * `workspace:<id>`. The clock starts when COMMIT has returned and stops when the last of 50 supabase-js
 * clients (each on a socket of its own, joined to the private channel as a member) has the message of
 * that move. The baseline, round by round in the same loop: a bare `ws` server in this process sends the
 * very frame the stand-in sent for that move to 50 bare `ws` clients, timed from the first send to the
 * last receipt.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { WebSocket, WebSocketServer } from 'ws';
import { readKeys } from '../local/keys.ts';
import { encodeBroadcast } from '../local/realtime/wire.ts';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import { liveUser, realtimeClient, signedToken, subscribed } from '../tests/support/stand-in-realtime.ts';
import type { BenchStack } from './bench-stack.ts';
import type { Rounds } from './interleaved.ts';
import { latencyOf, ratioOfMedians, type Latency } from './latency.ts';
import { apiLikeDatabase } from './list-overhead.ts';
import { alternating, moveAsMember } from './member-move.ts';
import { selectWorkspaceMembers } from './realtime-fanout.queries.ts';
import type { BenchRow } from './rows.ts';
import { selectColumnTaskIds } from './seed.queries.ts';

export const REALTIME_CLIENTS = 50;
/** At least this many timed moves (when asked for as many), whatever the time budget says. */
const MIN_MOVES = 500;
const WARMUP_SHARE = 0.2;
/**
 * The row's time budget, in rounds.budgetSeconds: a round has three parts, as measureInterleaved budgets
 * three contenders (the move, untimed up to its COMMIT, then the two timed deliveries).
 */
const BUDGET_FACTOR = 1.5;
/** A move whose message has not reached every client by then was dropped: the bench fails. */
const ARRIVAL_TIMEOUT_MS = 10_000;
const TARGETS = { p50Ms: 5, ratio: 10, p99Ms: 25 };
/** The moved task starts in `backlog` (not one of row b's). */
const COLUMNS: readonly [TaskStatus, TaskStatus] = ['in_review', 'backlog'];

/** The message a client received, as realtime-js hands it over. */
interface Received {
  event: string;
  payload: { type?: string; resource_id?: string; version?: number };
  meta?: Record<string, unknown>;
}

export function describeRealtimeMethod(rounds: Rounds): string {
  return (
    `row k moves a task ${rounds.warmup.toLocaleString('en')} times untimed, then up to ` +
    `${rounds.measured.toLocaleString('en')} times (at least ${Math.min(MIN_MOVES, rounds.measured)}, else for at most ` +
    `${rounds.budgetSeconds * BUDGET_FACTOR} s), each move its own transaction as the member under RLS, timed from its COMMIT's ` +
    `return to the message's arrival at the last of ${REALTIME_CLIENTS} supabase-js clients on the workspace's ` +
    `private channel, each move followed by a bare \`ws\` fan-out of the same frame to ${REALTIME_CLIENTS} \`ws\` clients`
  );
}

export async function measureRealtimeFanOut(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const { workspaceId, userIds } = await selectWorkspaceMembers(stack.owner.statements, stack.seeded.slug);
  const backlog = await selectColumnTaskIds(stack.owner.statements, stack.seeded.big.id, 'backlog', 3);
  const { viaApi, viaSql } = stack.seeded.movable;
  const taskId = backlog.find((id) => id !== viaApi && id !== viaSql);
  if (!taskId) throw new Error('row k needs a backlog task of the big project that row b does not move');
  const topic = `workspace:${workspaceId}`;
  progress(`k: ${REALTIME_CLIENTS} supabase-js clients joining the private channel ${topic} as members…`);
  const subscribers = await subscribeClients(stack, topic, userIds);
  const bare = await startBareFanOut(REALTIME_CLIENTS);
  const db = apiLikeDatabase(stack, progress);
  const nextColumn = alternating(COLUMNS);
  const projectId = stack.seeded.big.id;
  const timedMove = async () => {
    const move = {
      projectId,
      taskId,
      status: nextColumn(),
      to: 'end' as const,
    };
    let arrival: Promise<Arrival> | undefined;
    await moveAsMember(db, stack.principal, move, (task) => {
      // Waited for before COMMIT, so that no early arrival is missed.
      arrival = subscribers.arrivalOf(taskId, task.version);
    });
    const committed = performance.now();
    const { lastAt, message } = await (arrival as Promise<Arrival>);
    return { ms: lastAt - committed, frame: frameOf(topic, message) };
  };
  try {
    progress(
      `k: task moves to ${REALTIME_CLIENTS} realtime clients and bare ws fan-outs, ${rounds.measured} each…`,
    );
    const latency = await measureRounds(rounds, async () => {
      const moved = await timedMove();
      return { realtime: moved.ms, bare: await bare.send(moved.frame) };
    });
    return [realtimeRow(latency.realtime, latency.bare)];
  } finally {
    await Promise.allSettled([subscribers.close(), bare.close(), db.close()]);
  }
}

/** Warm-up rounds, then timed ones until `measured` or the budget (but at least MIN_MOVES) is reached. */
async function measureRounds(
  rounds: Rounds,
  round: () => Promise<{ realtime: number; bare: number }>,
): Promise<{ realtime: Latency; bare: Latency }> {
  const started = performance.now();
  const elapsedMs = () => performance.now() - started;
  const budgetMs = rounds.budgetSeconds * 1000 * BUDGET_FACTOR;
  for (let done = 0; done < rounds.warmup && elapsedMs() < budgetMs * WARMUP_SHARE; done += 1) {
    rounds.signal?.throwIfAborted();
    await round();
  }
  const realtime: number[] = [];
  const bare: number[] = [];
  const atLeast = Math.min(MIN_MOVES, rounds.measured);
  while (realtime.length < rounds.measured && (realtime.length < atLeast || elapsedMs() < budgetMs)) {
    rounds.signal?.throwIfAborted();
    const timed = await round();
    realtime.push(timed.realtime);
    bare.push(timed.bare);
  }
  return { realtime: latencyOf(realtime), bare: latencyOf(bare) };
}

/** The row's three targets in one: its figure is the worst of the three as a share of its limit. */
function realtimeRow(subject: Latency, baseline: Latency): BenchRow {
  const ratio = ratioOfMedians(subject, baseline);
  const checks = [
    { name: 'p50', value: subject.p50Ms, limit: TARGETS.p50Ms, unit: ' ms' },
    { name: 'ratio', value: ratio, limit: TARGETS.ratio, unit: '×' },
    { name: 'p99', value: subject.p99Ms, limit: TARGETS.p99Ms, unit: ' ms' },
  ];
  const missed = checks
    .filter((check) => check.value > check.limit)
    .map((check) => `${check.name} ${check.value.toFixed(2)}${check.unit} > ${check.limit}${check.unit}`);
  return {
    id: 'k',
    subject: `task move's COMMIT → the last of ${REALTIME_CLIENTS} supabase-js clients of \`workspace:<id>\``,
    latency: subject,
    baseline: {
      name: `bare \`ws\` fan-out of the same frame to ${REALTIME_CLIENTS} clients`,
      latency: baseline,
    },
    ratio,
    target: {
      text: `p50 ≤ ${TARGETS.p50Ms} ms, ≤ ${TARGETS.ratio}×, p99 ≤ ${TARGETS.p99Ms} ms`,
      value: Math.max(...checks.map((check) => check.value / check.limit)),
      limit: 1,
    },
    ...(missed.length > 0 ? { note: missed.join(', ') } : {}),
  };
}

/** The kind-4 frame the stand-in sends a vsn 2.0.0 socket for this message, byte for byte. */
function frameOf(topic: string, message: Received): Buffer {
  const frame = encodeBroadcast('2.0.0', `realtime:${topic}`, {
    event: message.event,
    payload: message.payload,
    ...(message.meta ? { meta: message.meta } : {}),
    binaryFrame: true,
  });
  if (!Buffer.isBuffer(frame)) throw new Error('a database broadcast is not a binary frame');
  return frame;
}

interface Arrival {
  /** When the last client had it (performance.now()). */
  lastAt: number;
  message: Received;
}

interface Subscribers {
  /** Resolves when every client has had the message of the task at that version. */
  arrivalOf(taskId: string, version: number): Promise<Arrival>;
  close(): Promise<void>;
}

/** The clients, each with a token of a member in turn (signed with the stand-in's keys, as Auth signs). */
async function subscribeClients(stack: BenchStack, topic: string, userIds: string[]): Promise<Subscribers> {
  const keys = await readKeys(stack.standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  const expected = new Map<string, { count: number; resolve: (arrival: Arrival) => void }>();
  const receive = (message: Received) => {
    const { resource_id: resourceId, version } = message.payload;
    const key = `${resourceId}@${version}`;
    const waiting = expected.get(key);
    if (!waiting) return;
    waiting.count += 1;
    if (waiting.count === REALTIME_CLIENTS) {
      expected.delete(key);
      waiting.resolve({ lastAt: performance.now(), message });
    }
  };
  const clients: SupabaseClient[] = [];
  const close = async () => {
    await Promise.allSettled(clients.map((client) => client.removeAllChannels()));
  };
  try {
    const joins: Promise<RealtimeChannel>[] = [];
    for (let index = 0; index < REALTIME_CLIENTS; index += 1) {
      const token = await signedToken(stack.standIn, {
        // A live session of the member's: RLS admits no other (decision 0032).
        ...(await liveUser(stack.standIn, userIds[index % userIds.length] ?? '')),
        aal: 'aal1',
        exp: Math.floor(Date.now() / 1000) + 3600,
      });
      const client = realtimeClient(
        stack.standIn.apiUrl,
        keys.anonKey,
        { timeout: 30_000 },
        async () => token,
      );
      clients.push(client);
      await client.realtime.setAuth(); // before the join, which would otherwise go out with the anon key
      const channel = client.channel(topic, { config: { private: true } });
      channel.on('broadcast', { event: 'task.moved' }, (message) => receive(message as unknown as Received));
      joins.push(subscribed(channel));
    }
    await Promise.all(joins);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    arrivalOf: (taskId, version) =>
      new Promise<Arrival>((resolve, reject) => {
        const key = `${taskId}@${version}`;
        const timer = setTimeout(() => {
          const count = expected.get(key)?.count ?? 0;
          expected.delete(key);
          reject(new Error(`the move to version ${version} reached ${count} of ${REALTIME_CLIENTS} clients`));
        }, ARRIVAL_TIMEOUT_MS);
        expected.set(key, {
          count: 0,
          resolve: (arrival) => {
            clearTimeout(timer);
            resolve(arrival);
          },
        });
      }),
    close,
  };
}

interface BareFanOut {
  /** Sends `frame` to every client; the ms from the first send to the last client's receipt. */
  send(frame: Buffer): Promise<number>;
  close(): Promise<void>;
}

/** A plain `ws` server (the stand-in's options: no compression) and its clients, all in this process. */
async function startBareFanOut(clients: number): Promise<BareFanOut> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let round: { count: number; resolve: (at: number) => void } | null = null;
  const sockets = await Promise.all(
    Array.from({ length: clients }, async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`);
      socket.on('message', () => {
        if (!round) return;
        round.count += 1;
        if (round.count === clients) {
          round.resolve(performance.now());
          round = null;
        }
      });
      await once(socket, 'open');
      return socket;
    }),
  );
  if (server.clients.size !== clients) throw new Error('the bare fan-out server misses clients');
  return {
    send: async (frame) => {
      const arrived = new Promise<number>((resolve) => (round = { count: 0, resolve }));
      const started = performance.now();
      for (const peer of server.clients) peer.send(frame);
      return (await arrived) - started;
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
