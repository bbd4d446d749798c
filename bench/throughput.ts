/**
 * Rows e and f: the list under load, with autocannon in this process: many kept-alive connections for a
 * fixed time, each with the member's bearer token. Row e: every answer of the API must be a 2xx and no
 * connection may fail. Row f: the same load, right after, on the bare handler behind the same gateway
 * (the function `bare`, sent the same bearer header); the API must serve at least half its requests
 * per second.
 */
import autocannon from 'autocannon';
import type { BenchStack } from './bench-stack.ts';
import type { Latency } from './latency.ts';
import { barePath, listPath } from './list-overhead.ts';
import type { BenchRow } from './rows.ts';

export interface Load {
  connections: number;
  durationSeconds: number;
}

/** The least share of the bare handler's requests per second the API must serve under the same load. */
const MIN_THROUGHPUT_SHARE = 0.65;

export async function measureThroughput(
  stack: BenchStack,
  load: Load,
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<BenchRow[]> {
  const headers = { authorization: `Bearer ${stack.accessToken}` };
  const shape = `${load.connections} connections for ${load.durationSeconds} s`;
  progress(`e: autocannon on the API, ${shape}…`);
  const api = await runLoad(`${stack.standIn.apiUrl}${listPath(stack, 'BIG')}`, headers, load, signal);
  progress(`f: autocannon on the bare handler through the same gateway, ${shape}…`);
  const barePathViaGateway = barePath(stack, `${stack.bareViaGatewayPath}/tasks`);
  const bare = await runLoad(`${stack.standIn.apiUrl}${barePathViaGateway}`, headers, load, signal);
  const share = api.requests.average / bare.requests.average;
  const subject = `API list under load: ${load.connections} connections, ${load.durationSeconds} s (autocannon)`;
  return [
    {
      id: 'e',
      subject,
      latency: latencyOf(api),
      baseline: null,
      ratio: null,
      target: { text: '0 errors, 0 non-2xx', value: failuresOf(api), limit: 0 },
      note: `${perSecond(api)}, ${outcomesOf(api)}`,
      underLoad: true,
    },
    {
      id: 'f',
      subject,
      latency: latencyOf(api),
      baseline: { name: 'bare handler, same gateway, same load, right after', latency: latencyOf(bare) },
      ratio: api.latency.p50 / bare.latency.p50,
      target: {
        text: `req/s ≥ ${MIN_THROUGHPUT_SHARE * 100}% of bare`,
        value: share,
        limit: MIN_THROUGHPUT_SHARE,
        atLeast: true,
      },
      note: `API ${perSecond(api)}, ${Math.round(share * 100)}% of bare's ${perSecond(bare)}; bare: ${outcomesOf(bare)}`,
      underLoad: true,
    },
  ];
}

function runLoad(
  url: string,
  headers: Record<string, string>,
  load: Load,
  signal?: AbortSignal,
): Promise<autocannon.Result> {
  signal?.throwIfAborted();
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: load.connections, duration: load.durationSeconds, headers },
      (error, finished) => {
        if (error) reject(error);
        else if (signal?.aborted) reject(signal.reason);
        else resolve(finished);
      },
    );
    signal?.addEventListener('abort', () => instance.stop(), { once: true });
  });
}

function latencyOf(result: autocannon.Result): Latency {
  return { p50Ms: result.latency.p50, p99Ms: result.latency.p99, count: result.requests.total };
}

function failuresOf(result: autocannon.Result): number {
  return result.errors + result.timeouts + result.non2xx;
}

function perSecond(result: autocannon.Result): string {
  return `${Math.round(result.requests.average).toLocaleString('en')} req/s`;
}

function outcomesOf(result: autocannon.Result): string {
  return `${result.requests.total.toLocaleString('en')} requests, ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx${statusesOf(result)}`;
}

/** The statuses of the non-2xx answers, e.g. ` (503 × 200)`, or nothing when there were none. */
function statusesOf(result: autocannon.Result): string {
  const failed = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => !status.startsWith('2'));
  if (failed.length === 0) return '';
  return ` (${failed.map(([status, stats]) => `${status} × ${stats.count ?? 0}`).join(', ')})`;
}
