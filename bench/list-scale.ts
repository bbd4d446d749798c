/**
 * Row d: the list must not slow down as a project grows (keyset pagination on an index, never a scan):
 * the same request through the API against the project of 10,000 tasks and the one of 1,000.
 */
import type { BenchStack } from './bench-stack.ts';
import { httpClient } from './http-client.ts';
import { measureInterleaved, type Rounds } from './interleaved.ts';
import { listPath } from './list-overhead.ts';
import { ratioRow, type BenchRow } from './rows.ts';

export async function measureListScale(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const api = httpClient(stack.standIn.apiUrl);
  const headers = { authorization: `Bearer ${stack.accessToken}` };
  const { big, small } = stack.seeded;
  const list = (key: string) => () => api.call({ method: 'GET', path: listPath(stack, key), headers });
  try {
    progress(
      `d: the list of a ${big.tasks}-task and a ${small.tasks}-task project, ${rounds.measured} each…`,
    );
    const latency = await measureInterleaved({ big: list(big.key), small: list(small.key) }, rounds);
    return [
      ratioRow(
        'd',
        { name: `API list, project of ${big.tasks.toLocaleString('en')} tasks`, latency: latency.big },
        { name: `API list, project of ${small.tasks.toLocaleString('en')} tasks`, latency: latency.small },
        1.2,
      ),
    ];
  } finally {
    api.close();
  }
}
