// `npm run bench`: the benchmark at full size. Prints progress, then the table (also written to
// bench/results.md). A missed target is reported, not failed: the exit code says only whether it ran.
// `npm run bench -- --rows a,b,f` measures only those rows' steps (for focused comparisons) and prints
// the table without writing results.md, which always holds a full run; `--web` is `--rows g` (the
// browser rows g–j and m) and `--realtime` is `--rows k,l`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FULL_BENCH, runBench, stepsFor } from './bench.ts';

const RESULTS = join(import.meta.dirname, 'results.md');
const progress = (line: string) => process.stdout.write(`bench: ${line}\n`);
const interrupted = new AbortController();
// `on`, not `once`: Ctrl-C reaches us twice (from the terminal and relayed by tsx), and an unhandled
// second signal would kill the process before it has stopped the stand-in.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted.signal.aborted) return;
    progress(`${signal}: stopping…`);
    interrupted.abort(new Error(`interrupted by ${signal}`));
  });
}

const { values } = parseArgs({
  options: { rows: { type: 'string' }, web: { type: 'boolean' }, realtime: { type: 'boolean' } },
});
const rows = values.web
  ? ['g']
  : values.realtime
    ? ['k', 'l']
    : values.rows
        ?.split(',')
        .map((row) => row.trim())
        .filter((row) => row !== '');

try {
  if (rows) stepsFor(rows); // an unknown row is refused before the stand-in starts
  const command = rows ? `npm run bench -- --rows ${rows.join(',')}` : FULL_BENCH.command;
  const { report } = await runBench({ ...FULL_BENCH, rows, command, signal: interrupted.signal }, progress);
  if (rows) {
    process.stdout.write(`\n${report}\nbench: some rows only; bench/results.md is left as it is\n`);
  } else {
    await writeFile(RESULTS, report);
    process.stdout.write(`\n${report}\nbench: written to bench/results.md\n`);
  }
} catch (error) {
  if (interrupted.signal.aborted) {
    progress('interrupted; everything it started is stopped');
    process.exitCode = 130;
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`bench: failed: ${detail}\n`);
    process.exitCode = 1;
  }
}
