/**
 * Row a: what the API adds to one list query. The subject is `GET …/projects/BIG/tasks?status=todo&limit=50`
 * through the gateway to the function under Deno (JWT verification, session check, rate limit, the RLS
 * transaction, Hono, zod, JSON). The floor is the queries module's list on `createDatabase().asCaller`
 * in this process: the same SQL through the same driver, with no HTTP. The bare baseline is a plain
 * Deno.serve handler running that SQL on npm:pg, without auth or RLS, measured twice: as the function
 * `bare` through the same gateway as the API (like for like: a4, the target), and on its own port,
 * called directly (a2, the old row, kept for reference: the gateway's hop counts on one side only).
 */
import { createDatabase, type Database } from '../supabase/functions/_shared/db.ts';
import { createJsonLogger } from '../supabase/functions/_shared/logger.ts';
import { selectTasks } from '../supabase/functions/api/tasks/tasks.queries.ts';
import type { BenchStack } from './bench-stack.ts';
import { httpClient } from './http-client.ts';
import { measureInterleaved, type Rounds } from './interleaved.ts';
import { columnFilter, LIST_LIMIT, LISTED_STATUS } from './list-query.ts';
import { ratioRow, type BenchRow } from './rows.ts';

export const API_PREFIX = '/functions/v1/api/v1';

export function listPath(stack: BenchStack, projectKey: string): string {
  return `${API_PREFIX}/workspaces/${stack.seeded.slug}/projects/${projectKey}/tasks?status=${LISTED_STATUS}&limit=${LIST_LIMIT}`;
}

/** A database handle like the API's, whose warnings go to the bench's progress instead of the console. */
export function apiLikeDatabase(stack: BenchStack, progress: (line: string) => void): Database {
  const logger = createJsonLogger({ level: 'warn', write: (line) => progress(`database: ${line}`) });
  return createDatabase({ url: stack.databaseUrl, logger });
}

export async function measureListOverhead(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const api = httpClient(stack.standIn.apiUrl);
  const bare = httpClient(stack.bare.url);
  const gateway = httpClient(stack.standIn.apiUrl);
  const db = apiLikeDatabase(stack, progress);
  const headers = { authorization: `Bearer ${stack.accessToken}` };
  const projectId = stack.seeded.big.id;
  const listViaApi = () => api.call({ method: 'GET', path: listPath(stack, 'BIG'), headers });
  const listOnFloor = () =>
    db.asCaller(stack.principal, (sql) =>
      selectTasks(sql, projectId, columnFilter(LISTED_STATUS), 'position', { limit: LIST_LIMIT }),
    );
  const listViaBare = () => bare.call({ method: 'GET', path: barePath(stack, '/tasks') });
  // The same bearer header as the API's, so that the gateway forwards the same request, byte for byte.
  const listViaBareFunction = () =>
    gateway.call({ method: 'GET', path: barePath(stack, `${stack.bareViaGatewayPath}/tasks`), headers });
  try {
    const firstIds = [
      firstIdOf(await listViaApi()),
      (await listOnFloor())[0]?.task.id,
      firstIdOf(await listViaBare()),
      firstIdOf(await listViaBareFunction()),
    ];
    // All must answer the same page, or the comparison compares nothing.
    if (firstIds[0] === undefined || new Set(firstIds).size !== 1) {
      throw new Error(
        `the API, the floor and the bare handler (direct, via the gateway) list different tasks: ${firstIds.join(', ')}`,
      );
    }
    progress(
      `a: the list via the API, on the floor, via the bare handler directly and through the gateway, ${rounds.measured} each…`,
    );
    const latency = await measureInterleaved(
      { api: listViaApi, floor: listOnFloor, bare: listViaBare, bareFunction: listViaBareFunction },
      rounds,
    );
    const subject = {
      name: 'API list: gateway → Deno, JWT + session + rate limit + RLS',
      latency: latency.api,
    };
    return [
      ratioRow('a1', subject, { name: 'floor: same SQL, asCaller, no HTTP', latency: latency.floor }, 3),
      {
        ...ratioRow(
          'a2',
          subject,
          { name: 'bare Deno.serve + npm:pg, direct, no gateway', latency: latency.bare },
          1.5,
        ),
        target: null,
        note: 'the old row: the gateway counts on one side only; a4 is like for like',
      },
      {
        id: 'a3',
        subject: subject.name,
        latency: latency.api,
        baseline: null,
        ratio: null,
        target: { text: 'p50 ≤ 1 ms', value: latency.api.p50Ms, limit: 1 },
      },
      ratioRow(
        'a4',
        subject,
        { name: 'bare Deno.serve + npm:pg, same gateway', latency: latency.bareFunction },
        1.3,
      ),
    ];
  } finally {
    api.close();
    bare.close();
    gateway.close();
    await db.close();
  }
}

/** The bare handler's list of the big project, at `path` (it answers any path). */
export function barePath(stack: BenchStack, path: string): string {
  return `${path}?project=${stack.seeded.big.id}&status=${LISTED_STATUS}&limit=${LIST_LIMIT}`;
}

/** The first task's id of a page as the API (and the bare handler) answer it. */
function firstIdOf(body: string): string | undefined {
  return (JSON.parse(body) as { data: { id: string }[] }).data[0]?.id;
}
