// `npm run bench`: the benchmark at full size. Prints progress, then the table (also written to
// bench/results.md). A missed target is reported, not failed: the exit code says only whether it ran.
// `npm run bench -- --web` measures only the browser rows g–j and prints them (results.md is kept);
// `npm run bench -- --realtime` likewise row k only.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FULL_BENCH, runBench } from './bench.ts';

const RESULTS = join(import.meta.dirname, 'results.md');
const webOnly = process.argv.includes('--web');
const realtimeOnly = process.argv.includes('--realtime');
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

try {
  const only = webOnly ? '--web' : realtimeOnly ? '--realtime' : null;
  const command = only ? `npm run bench -- ${only}` : FULL_BENCH.command;
  const options = { ...FULL_BENCH, webOnly, realtimeOnly, command, signal: interrupted.signal };
  const { report } = await runBench(options, progress);
  if (only) {
    process.stdout.write(`\n${report}\nbench: ${only} rows only; bench/results.md is left as it was\n`);
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
