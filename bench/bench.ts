/**
 * `npm run bench`, as a function: starts the stack, measures rows a–f one after another, stops the stack,
 * and answers the rows and the report. bench/run.ts runs it at full size; tests/local/bench-smoke.test.ts
 * runs it tiny, so that it cannot rot.
 */
import { startBenchStack, type BenchStack } from './bench-stack.ts';
import { describeCommentFanOutMethod, measureCommentFanOut } from './comment-fan-out.ts';
import { describeImportBoardMethod, measureImportBoard, type ImportBenchOptions } from './import-board.ts';
import { describeWebhookBurstMethod, measureWebhookBurst } from './webhook-burst.ts';
import { describeWebhookDeliveryMethod, measureWebhookDelivery } from './webhook-delivery.ts';
import { describeWebhookScheduleMethod, measureWebhookSchedule } from './webhook-schedule.ts';
import type { Rounds } from './interleaved.ts';
import { measureListOverhead } from './list-overhead.ts';
import { measureListScale } from './list-scale.ts';
import { describeMachine } from './machine.ts';
import { measureMoveOverhead } from './move-overhead.ts';
import { describeRealtimeBoardMethod, measureRealtimeBoard } from './realtime-board.ts';
import { describeRealtimeMethod, measureRealtimeFanOut } from './realtime-fanout.ts';
import { renderReport, summaryOf, webResultOf } from './report.ts';
import { measureRlsCost } from './rls-cost.ts';
import type { BenchRow } from './rows.ts';
import type { SeedSizes } from './seed.ts';
import { measureThroughput, type Load } from './throughput.ts';
import { measureBoardInBrowser, type WebBenchOptions } from './web-board.ts';
import type { WebRow } from './web-rows.ts';

export interface BenchOptions {
  seed: SeedSizes;
  rounds: Rounds;
  load: Load;
  /** The board in Chromium (rows g–j and m, and l's moves). */
  web: WebBenchOptions;
  /** How often the stand-in's timer calls the webhook dispatcher (row o2): every minute, as on hosted. */
  webhookScheduleMs: number;
  /** The board row p imports, and how many times. */
  importBoard: ImportBenchOptions;
  /** The command line the report names. */
  command: string;
  /** Aborted (Ctrl-C), the bench stops measuring, stops the stand-in and throws. */
  signal?: AbortSignal;
  /** Only the steps of these rows (`a`, `b`, …, `g`, `k`, `l`; a step measures all its rows); every row if unset. */
  rows?: readonly string[];
}

/** The steps of the bench, each named by the rows it measures, in the order they run. */
export const BENCH_STEPS = ['a', 'b', 'c', 'd', 'ef', 'k', 'l', 'n', 'o', 'p', 'ghijm'] as const;
type BenchStep = (typeof BENCH_STEPS)[number];

/** The steps that measure any of `rows` (`a4` or `a` selects step `a`); every step when unset. */
export function stepsFor(rows: readonly string[] | undefined): Set<BenchStep> {
  if (rows === undefined) return new Set(BENCH_STEPS);
  const chosen = new Set<BenchStep>();
  for (const row of rows) {
    const step = BENCH_STEPS.find((name) => name.includes(row.charAt(0).toLowerCase()));
    if (step === undefined)
      throw new Error(`no bench row "${row}": rows are a1–a4, b, c, d, e, f, g–j, m, k, l, n, o–o3, p`);
    chosen.add(step);
  }
  return chosen;
}

export const FULL_BENCH: BenchOptions = {
  seed: { members: 20, bigProjectTasks: 10_000, smallProjectTasks: 1_000 },
  rounds: { warmup: 200, measured: 2_000, budgetSeconds: 45 },
  load: { connections: 50, durationSeconds: 20 },
  web: { loads: 20, moves: 100, slowLoads: 3 },
  webhookScheduleMs: 60_000,
  importBoard: { cards: 5_000, rounds: 5 },
  command: 'npm run bench',
};

export interface BenchResult {
  rows: BenchRow[];
  webRows: WebRow[];
  report: string;
}

export async function runBench(
  options: BenchOptions,
  progress: (line: string) => void,
): Promise<BenchResult> {
  const startedAt = new Date();
  const stack = await startBenchStack(options.seed, options.webhookScheduleMs, progress);
  try {
    const { rows, webRows } = await measureEverything(stack, options, progress);
    for (const row of webRows) progress(`${row.id}: ${webResultOf(row)}`);
    const report = renderReport(
      rows,
      {
        startedAt,
        machine: await describeMachine(stack.owner.statements),
        command: options.command,
        method: describeMethod(options),
        requested: options.rounds.measured,
      },
      webRows,
    );
    return { rows, webRows, report };
  } finally {
    progress('stopping the stand-in…');
    await stack.stop();
  }
}

/** Every row; a failure says what the stand-in printed last, where the cause of a 5xx shows. */
async function measureEverything(stack: BenchStack, options: BenchOptions, progress: (line: string) => void) {
  try {
    const rows = await measureAll(stack, options, progress);
    const webRows = stepsFor(options.rows).has('ghijm')
      ? await measureBoardInBrowser(stack, options.web, progress)
      : [];
    return { rows, webRows };
  } catch (error) {
    const lastLines = stack.standIn.output().trimEnd().split('\n').slice(-30).join('\n');
    progress(`the stand-in's last output:\n${lastLines}`);
    throw error;
  }
}

async function measureAll(stack: BenchStack, options: BenchOptions, progress: (line: string) => void) {
  const rounds = { ...options.rounds, signal: options.signal };
  const steps: Record<Exclude<BenchStep, 'ghijm'>, () => Promise<BenchRow[]>> = {
    a: () => measureListOverhead(stack, rounds, progress),
    b: () => measureMoveOverhead(stack, rounds, progress),
    c: () => measureRlsCost(stack, rounds, progress),
    d: () => measureListScale(stack, rounds, progress),
    ef: () => measureThroughput(stack, options.load, progress, options.signal),
    k: () => measureRealtimeFanOut(stack, rounds, progress),
    l: () => measureRealtimeBoard(stack, options.web.moves, progress),
    n: () => measureCommentFanOut(stack, rounds, progress),
    o: async () => [
      ...(await measureWebhookDelivery(stack, rounds, progress)),
      ...(await measureWebhookSchedule(stack, rounds, options.webhookScheduleMs, progress)),
      ...(await measureWebhookBurst(stack, rounds, progress)),
    ],
    p: () => measureImportBoard(stack, options.importBoard, progress),
  };
  const chosen = stepsFor(options.rows);
  const rows: BenchRow[] = [];
  for (const [name, step] of Object.entries(steps)) {
    if (!chosen.has(name as BenchStep)) continue;
    const measured = await step();
    for (const row of measured) progress(`${row.id}: ${summaryOf(row)}`);
    rows.push(...measured);
  }
  return rows;
}

function describeMethod({
  seed,
  rounds,
  load,
  web,
  rows,
  webhookScheduleMs,
  importBoard,
}: BenchOptions): string {
  const count = (n: number) => n.toLocaleString('en');
  const chosen = stepsFor(rows);
  const workspace =
    `a workspace of ${seed.members} members, projects of ${count(seed.bigProjectTasks)} and ` +
    `${count(seed.smallProjectTasks)} tasks over 5 columns`;
  const api =
    `rows a–d one request in flight, the contenders taking turns request by request, ` +
    `${count(rounds.warmup)} warm-up rounds then ${count(rounds.measured)} timed requests each (at most ` +
    `${rounds.budgetSeconds} s a row of two, half as much more per further contender); lists are ` +
    `\`?status=todo&limit=50\` in board order; rows e and f are ${load.connections} connections for ` +
    `${load.durationSeconds} s on the API, then as long on the bare handler through the same gateway`;
  const board =
    `rows g–j ${web.loads} board loads taking turns with as many plain-fetch loads; row m ` +
    `${web.slowLoads} cold and ${web.slowLoads} warm loads on Slow 3G taking turns, the build gzipped`;
  const parts = [
    ...((['a', 'b', 'c', 'd', 'ef'] as const).some((step) => chosen.has(step)) ? [api] : []),
    ...(chosen.has('ghijm') ? [board] : []),
    ...(chosen.has('k') ? [describeRealtimeMethod(rounds)] : []),
    ...(chosen.has('l') ? [describeRealtimeBoardMethod(web.moves)] : []),
    ...(chosen.has('n') ? [describeCommentFanOutMethod(rounds)] : []),
    ...(chosen.has('o')
      ? [
          describeWebhookDeliveryMethod(rounds),
          describeWebhookScheduleMethod(rounds, webhookScheduleMs),
          describeWebhookBurstMethod(rounds),
        ]
      : []),
    ...(chosen.has('p') ? [describeImportBoardMethod(importBoard)] : []),
  ];
  const only = rows === undefined ? '' : ` (only the steps of rows ${rows.join(', ')})`;
  return `${workspace}${only}; ${parts.join('; ')}.`;
}
