// `npm run bench`: the benchmark at full size. Prints progress, then the table (also written to
// bench/results.md). A missed target is reported, not failed: the exit code says only whether it ran.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FULL_BENCH, runBench } from './bench.ts';

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

try {
  const { report } = await runBench({ ...FULL_BENCH, signal: interrupted.signal }, progress);
  await writeFile(RESULTS, report);
  process.stdout.write(`\n${report}\nbench: written to bench/results.md\n`);
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
