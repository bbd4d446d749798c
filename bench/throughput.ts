/**
 * Row e: the list under load, with autocannon in this process: many kept-alive connections for a fixed
 * time, each with the member's bearer token. Every answer must be a 2xx and no connection may fail.
 */
import autocannon from 'autocannon';
import type { BenchStack } from './bench-stack.ts';
import { listPath } from './list-overhead.ts';
import type { BenchRow } from './rows.ts';

export interface Load {
  connections: number;
  durationSeconds: number;
}

export async function measureThroughput(
  stack: BenchStack,
  load: Load,
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<BenchRow[]> {
  progress(`e: autocannon, ${load.connections} connections for ${load.durationSeconds} s…`);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${stack.standIn.apiUrl}${listPath(stack, 'BIG')}`,
        connections: load.connections,
        duration: load.durationSeconds,
        headers: { authorization: `Bearer ${stack.accessToken}` },
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    signal?.addEventListener('abort', () => instance.stop(), { once: true });
  });
  signal?.throwIfAborted();
  const failures = result.errors + result.timeouts + result.non2xx;
  const perSecond = Math.round(result.requests.average).toLocaleString('en');
  return [
    {
      id: 'e',
      subject: `API list under load: ${load.connections} connections, ${load.durationSeconds} s (autocannon)`,
      latency: { p50Ms: result.latency.p50, p99Ms: result.latency.p99, count: result.requests.total },
      baseline: null,
      ratio: null,
      target: { text: '0 errors, 0 non-2xx', value: failures, limit: 0 },
      note: `${perSecond} req/s, ${result.requests.total.toLocaleString('en')} requests, ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx${statusesOf(result)}`,
    },
  ];
}

/** The statuses of the non-2xx answers, e.g. ` (503 × 200)`, or nothing when there were none. */
function statusesOf(result: autocannon.Result): string {
  const failed = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => !status.startsWith('2'));
  if (failed.length === 0) return '';
  return ` (${failed.map(([status, stats]) => `${status} × ${stats.count ?? 0}`).join(', ')})`;
}
