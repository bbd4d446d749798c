/**
 * The measuring loop every sequential row shares: the contenders take turns request by request
 * (A B C A B C …), one request in flight at a time, so that whatever else the machine does hits them all
 * alike. Each round starts with the next contender, so none always runs right after the same other one.
 * A row has a time budget: a contender that takes far longer than it should gets fewer rounds (the table
 * shows how many) rather than keeping the bench running for an hour.
 */
import { performance } from 'node:perf_hooks';
import { latencyOf, type Latency } from './latency.ts';

/** One thing being timed: an async call that throws when its answer is not the expected one. */
export type Contender = () => Promise<unknown>;

export interface Rounds {
  /** Untimed rounds first (connections opened, plans cached, JIT warm), in at most a fifth of the budget. */
  warmup: number;
  /** Timed rounds: each contender is timed this many times, unless the budget runs out first. */
  measured: number;
  /**
   * The most a row of two contenders may take, warm-up included, and as much more per further contender;
   * at least MIN_MEASURED rounds are timed whatever it says.
   */
  budgetSeconds: number;
  /** Aborted (Ctrl-C), the loop throws at the end of the round it is in. */
  signal?: AbortSignal;
}

const MIN_MEASURED = 20;
const WARMUP_SHARE = 0.2;

export async function measureInterleaved<Name extends string>(
  contenders: Readonly<Record<Name, Contender>>,
  rounds: Rounds,
): Promise<Record<Name, Latency>> {
  const names = Object.keys(contenders) as Name[];
  const samples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const started = performance.now();
  const budgetMs = (rounds.budgetSeconds * 1000 * Math.max(2, names.length)) / 2;
  const runRound = async (round: number, timed: boolean) => {
    rounds.signal?.throwIfAborted();
    for (let turn = 0; turn < names.length; turn += 1) {
      const name = names[(round + turn) % names.length] as Name;
      const before = performance.now();
      await contenders[name]();
      if (timed) samples.get(name)?.push(performance.now() - before);
    }
  };
  const elapsed = () => performance.now() - started;
  let round = 0;
  for (; round < rounds.warmup && elapsed() < budgetMs * WARMUP_SHARE; round += 1)
    await runRound(round, false);
  for (let timed = 0; timed < rounds.measured; timed += 1, round += 1) {
    if (timed >= MIN_MEASURED && elapsed() > budgetMs) break;
    await runRound(round, true);
  }
  return Object.fromEntries(names.map((name) => [name, latencyOf(samples.get(name) ?? [])])) as Record<
    Name,
    Latency
  >;
}
