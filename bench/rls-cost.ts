/**
 * Row c: what row-level security costs the list. Both run the queries module's list SQL through the
 * API's driver module in a transaction of the same statements: one as the caller (role `authenticated`
 * with the member's claims, so the policies apply), one as the table owner with the same claims set (so
 * only the role differs, and RLS does not apply to the owner).
 */
import { jwtClaimsFor } from '../supabase/functions/_shared/principal.ts';
import { selectTasks } from '../supabase/functions/api/tasks/tasks.queries.ts';
import type { BenchStack } from './bench-stack.ts';
import { measureInterleaved, type Rounds } from './interleaved.ts';
import { apiLikeDatabase } from './list-overhead.ts';
import { columnFilter, LIST_LIMIT, LISTED_STATUS } from './list-query.ts';
import { ratioRow, type BenchRow } from './rows.ts';
import { asService } from '../tests/support/service-transaction.ts';

export async function measureRlsCost(
  stack: BenchStack,
  rounds: Rounds,
  progress: (line: string) => void,
): Promise<BenchRow[]> {
  const db = apiLikeDatabase(stack, progress);
  const projectId = stack.seeded.big.id;
  const claims = JSON.stringify(jwtClaimsFor(stack.principal));
  const page = { limit: LIST_LIMIT };
  const listUnderRls = () =>
    db.asCaller(stack.principal, (sql) =>
      selectTasks(sql, projectId, columnFilter(LISTED_STATUS), 'position', page),
    );
  const listAsOwner = () =>
    asService(db, async (sql) => {
      await sql.query("select set_config('request.jwt.claims', $1, true)", [claims]);
      return selectTasks(sql, projectId, columnFilter(LISTED_STATUS), 'position', page);
    });
  try {
    const [underRls, asOwner] = [await listUnderRls(), await listAsOwner()];
    if (underRls.length !== asOwner.length || underRls[0]?.task.id !== asOwner[0]?.task.id) {
      throw new Error('the list under RLS and as the owner differ');
    }
    progress(`c: the list SQL under RLS and as the owner, ${rounds.measured} each…`);
    const latency = await measureInterleaved({ rls: listUnderRls, owner: listAsOwner }, rounds);
    return [
      ratioRow(
        'c',
        { name: 'list SQL as `authenticated`, under RLS', latency: latency.rls },
        { name: 'same SQL as the table owner (no RLS)', latency: latency.owner },
        1.3,
      ),
    ];
  } finally {
    await db.close();
  }
}
