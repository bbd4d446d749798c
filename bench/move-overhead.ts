/**
 * Row b: what the API adds to a write. The subject is `POST /v1/tasks/{id}/move` through the gateway;
 * the baseline is the raw transaction of the statements a move must run (the column's advisory lock,
 * the neighbour read, the update) on node-postgres as the table owner, for another task of the same
 * project. Both bounce their task between two columns, so every call really moves it (to the end).
 */
import { generateKeyBetween } from 'fractional-indexing';
import { lockColumn } from '../supabase/functions/api/tasks/task-moves.queries.ts';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';
import type { BenchStack } from './bench-stack.ts';
import { httpClient } from './http-client.ts';
import { selectPositionBefore, updateTaskPlace } from './member-move.queries.ts';
import { measureInterleaved, type Rounds } from './interleaved.ts';
import { API_PREFIX } from './list-overhead.ts';
import { rawSql } from './raw-sql.ts';
import { ratioRow, type BenchRow } from './rows.ts';

/** The movable tasks start in `backlog`. */
const COLUMNS: readonly [TaskStatus, TaskStatus] = ['in_review', 'backlog'];

export async function measureMoveOverhead(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const api = httpClient(stack.standIn.apiUrl);
  const projectId = stack.seeded.big.id;
  const { viaApi, viaSql } = stack.seeded.movable;
  const nextColumn = alternating(COLUMNS);
  const nextRawColumn = alternating(COLUMNS);
  const moveViaApi = () =>
    api.call({
      method: 'POST',
      path: `${API_PREFIX}/tasks/${viaApi}/move`,
      headers: { authorization: `Bearer ${stack.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: nextColumn() }),
    });
  const moveInRawSql = () =>
    stack.owner.transaction(async (client) => {
      const sql = rawSql(client);
      const status = nextRawColumn();
      await lockColumn(sql, projectId, status);
      const last = await selectPositionBefore(sql, projectId, status, null, viaSql);
      await updateTaskPlace(sql, viaSql, status, generateKeyBetween(last, null));
    });
  try {
    progress(`b: moves via the API and in raw SQL, ${rounds.measured} each…`);
    const latency = await measureInterleaved({ api: moveViaApi, raw: moveInRawSql }, rounds);
    return [
      ratioRow(
        'b',
        { name: 'API move: POST /v1/tasks/{id}/move', latency: latency.api },
        { name: 'raw SQL transaction: lock, neighbour, update', latency: latency.raw },
        1.5,
      ),
    ];
  } finally {
    api.close();
  }
}

function alternating<T>(values: readonly [T, T]): () => T {
  let turn = 0;
  return () => values[turn++ % 2] as T;
}
