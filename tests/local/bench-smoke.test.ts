/**
 * `npm run bench` is a report, not part of `npm test`; this runs it tiny (a small seed, a few rounds, a
 * second of load) against a fresh stand-in of its own, so that it cannot rot: every row of the table is
 * measured, with sane figures, and printed; the bare handler answers through the same gateway as the API.
 */
import { expect, test } from 'vitest';
import { runBench, type BenchOptions } from '../../bench/bench.ts';

const TINY: BenchOptions = {
  seed: { members: 3, bigProjectTasks: 100, smallProjectTasks: 20 },
  rounds: { warmup: 2, measured: 10, budgetSeconds: 60 },
  load: { connections: 2, durationSeconds: 1 },
  web: { loads: 2, moves: 3, slowLoads: 1 },
  webhookScheduleMs: 2_000,
  importBoard: { cards: 50, rounds: 2 },
  command: 'npx vitest run --project local tests/local/bench-smoke.test.ts',
};
const ROWS = ['a1', 'a2', 'a3', 'a4', 'b', 'c', 'd', 'e', 'f', 'k', 'l', 'n', 'o', 'o2', 'o3', 'p'];

test('the bench measures every row and prints them in one table', { timeout: 420_000 }, async () => {
  const progress: string[] = [];
  const { rows, webRows, report } = await runBench(TINY, (line) => progress.push(line));

  expect(rows.map((row) => row.id)).toEqual(ROWS);
  for (const row of rows) {
    expect(row.latency.p50Ms, row.id).toBeGreaterThan(0);
    expect(row.latency.p99Ms, row.id).toBeGreaterThanOrEqual(row.latency.p50Ms);
    if (row.baseline === null) continue;
    expect(row.ratio, row.id).toBeCloseTo(row.latency.p50Ms / row.baseline.latency.p50Ms, 6);
    if (row.underLoad) continue;
    const measured =
      row.id === 'l' ? TINY.web.moves : row.id === 'p' ? TINY.importBoard.rounds : TINY.rounds.measured;
    expect(row.latency.count, row.id).toBe(measured);
    expect(row.baseline.latency.count, row.id).toBe(measured);
  }
  const byId = (id: string) => rows.find((row) => row.id === id);
  // The old row is kept for reference, judged against nothing; the like-for-like one carries the target.
  expect(byId('a2')?.target).toBeNull();
  expect(byId('a4')?.target).toMatchObject({ text: '≤ 1.3×', limit: 1.3 });
  const load = byId('e');
  expect(load?.latency.count).toBeGreaterThan(0);
  // Every answer under load was a 2xx: the raised rate limits reached the function.
  expect(load?.target?.value).toBe(0);
  // The bare handler, through the same gateway, answered under the same load, every answer a 2xx.
  const throughput = byId('f');
  expect(throughput?.baseline?.latency.count).toBeGreaterThan(0);
  expect(throughput?.target).toMatchObject({ atLeast: true, limit: 0.65 });
  expect(throughput?.target?.value).toBeGreaterThan(0);
  expect(throughput?.note).toMatch(/bare: [\d,]+ requests, 0 errors, 0 timeouts, 0 non-2xx$/);

  // A committed move reached all 50 realtime clients, each time; the bare fan-out sent the same frames.
  const realtime = byId('k');
  expect(realtime?.subject).toMatch(/^task move's COMMIT → the last of 50 supabase-js clients/);
  expect(realtime?.baseline?.name).toMatch(/^bare `ws` fan-out of the same frame to 50 clients/);
  expect(realtime?.target).toMatchObject({ text: 'p50 ≤ 5 ms, ≤ 10×, p99 ≤ 25 ms', limit: 1 });
  expect(report).toMatch(/row k moves a task 2 times untimed, then up to 10 times/);

  // A move by one member showed on a colleague's board in Chromium, after its message reached that page.
  const board = byId('l');
  expect(board?.subject).toMatch(/^task move's COMMIT → the card in its new column on a colleague's board/);
  expect(board?.baseline?.name).toBe("the move's message arriving in that page");
  expect(board?.note).toMatch(/^\d+\.\d\d API requests per move on that board/);

  // A comment on a task all 50 members watch told the others, and was weighed against one nobody watches.
  const fanOut = byId('n');
  expect(fanOut?.subject).toBe('comment on a task 50 people watch');
  expect(fanOut?.target).toMatchObject({ text: '≤ 1.2×', limit: 1.2 });
  expect(fanOut?.note).toMatch(/^[1-9]\d* notifications written on the watched tasks/);

  // Each task created reached the webhook's receiver, verified, and every delivery succeeded.
  const hooks = byId('o');
  expect(hooks?.subject).toMatch(/^task created → its webhook delivery verified/);
  expect(hooks?.target).toMatchObject({ text: 'p50 ≤ 1,000 ms', limit: 1_000 });
  expect(hooks?.note).toMatch(/^deliveries: \d+ succeeded$/);
  // Changes nothing woke the dispatcher for went with its next scheduled run, all of them.
  const scheduled = byId('o2');
  expect(scheduled?.subject).toMatch(
    /nothing waking the dispatcher → its delivery verified \(schedule every 2 s\)$/,
  );
  expect(scheduled?.latency.count).toBe(TINY.rounds.measured);
  expect(scheduled?.target).toMatchObject({ text: 'p99 ≤ 3 s', limit: 3_000 });
  expect(scheduled?.note).toBe(`deliveries: ${TINY.rounds.measured} succeeded`);
  // A burst of 5 events per round, each to 3 webhooks, drained, with what it cost the database.
  const burst = byId('o3');
  const burstDeliveries = TINY.rounds.measured * 5 * 3;
  expect(burst?.latency.count).toBe(burstDeliveries);
  expect(burst?.target).toBeNull();
  expect(burst?.note).toMatch(
    new RegExp(
      `^drained in \\d+\\.\\d s, [\\d,]+ deliveries/s; the dispatcher's database time -?\\d+\\.\\d\\d ms per delivery; deliveries: ${burstDeliveries} succeeded$`,
    ),
  );

  const tableRows = report.split('\n').filter((line) => /^\| [a-fklnop]\d? +\|/.test(line));
  expect(tableRows.map((line) => line.split('|')[1]?.trim())).toEqual(ROWS);
  expect(report).toMatch(/^- Machine: \d+ cores .*Node v\d+.*Deno \d.*PostgreSQL \d+/m);
  expect(report).toContain(`- Command: \`${TINY.command}\`.`);
  expect(progress.at(-1)).toBe('stopping the stand-in…');

  // The board in Chromium: loaded, counted, dragged across and weighed against its floors.
  expect(webRows.map((row) => row.id)).toEqual(['g', 'h', 'i', 'i4', 'j', 'm']);
  const [boardLoad, nodes, longTasks, longTasksThrottled, bundle, slow] = webRows;
  expect(boardLoad?.latency?.count).toBe(TINY.web.loads);
  expect(boardLoad?.baseline?.latency?.count).toBe(TINY.web.loads);
  expect(boardLoad?.value).toBeGreaterThan(0);
  expect(nodes?.value).toBeGreaterThan(100);
  expect(longTasks?.value).toBeGreaterThanOrEqual(0);
  expect(longTasksThrottled?.subject).toMatch(/CPU throttled 4×/);
  expect(bundle?.value).toBeGreaterThan(bundle?.baseline?.value ?? Infinity);
  // On Slow 3G, a cold profile and one whose service worker has the app, each timed once.
  expect(slow?.latency?.count).toBe(TINY.web.slowLoads);
  expect(slow?.baseline?.latency?.count).toBe(TINY.web.slowLoads);
  expect(slow?.value).toBeGreaterThan(0);
  expect(report).toMatch(/^## The web app in Chromium$/m);
  expect(report).toMatch(/^\| j +\| the board route's JavaScript, gzipped/m);
  expect(report).toMatch(/^\| m +\| first card on Slow 3G, service worker warm/m);
});
