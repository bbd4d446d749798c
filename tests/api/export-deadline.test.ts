/**
 * The export's total deadline (the first security review, item 8): a client that keeps reading, but slowly,
 * resets the stall timer on every chunk; without a deadline it holds the snapshot's transaction, and a
 * database connection, for as long as it likes. Here the deadline is 1 s (AppDeps.exportDeadlineMs) and the
 * client takes one chunk every 500 ms from a workspace many chunks long.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { withBearer } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

const DEADLINE_MS = 1_000;
const DRIBBLE_MS = 500;

const api = useTestApp({ exportDeadlineMs: DEADLINE_MS });

/** The backends of this test's database inside a transaction (an export holds one while it streams). */
async function backendsInTransaction(): Promise<number> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
    ),
  );
  return rows.length;
}

describe('an export read slowly', () => {
  let workspace: WorkspaceFixture;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
    // Seeded on a connection of its own, without the API's statement bounds: on a busy machine 4,000
    // inserts with their triggers can take longer than a request's statement may.
    const seeder = new pg.Client({ connectionString: api.databaseUrl });
    await seeder.connect();
    try {
      const { rows } = await seeder.query<{ id: string }>(
        `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'SLOW', 'Slow', $2)
         returning id`,
        [workspace.id, workspace.owner.id],
      );
      // 4,000 tasks: 8 batches of 500, so at one chunk per 500 ms the whole export takes over 4 s.
      await seeder.query(
        `insert into public.tasks (project_id, title, description, position, created_by)
         select $1, 'Task ' || n, repeat('x', 200), 'a' || lpad(n::text, 6, '0'), $2
         from generate_series(1, 4000) n`,
        [rows[0]?.id, workspace.owner.id],
      );
    } finally {
      await seeder.end();
    }
  });

  it('is cut off at the deadline, and its connection goes back to the pool', async () => {
    const began = Date.now();
    const response = await api.app.request(
      `${workspace.path}/export`,
      withBearer(workspace.owner.accessToken, { headers: { 'X-Request-Id': 'export-dribbled' } }),
    );
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    await reader.read();
    await expect.poll(backendsInTransaction).toBe(1);

    let failed = false;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, DRIBBLE_MS));
      const read = await reader.read().catch(() => undefined);
      if (!read) {
        failed = true;
        break;
      }
      if (read.done) break;
    }

    expect(failed, 'the body is cut short, not completed').toBe(true);
    // Generous bounds: after the deadline, well before the slow read would have ended (over 4 s).
    expect(Date.now() - began).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(Date.now() - began).toBeLessThan(3_500);
    await expect.poll(backendsInTransaction).toBe(0);
    await expect
      .poll(() =>
        api.logs.forRequest('export-dribbled').map(({ msg, reason }) => `${msg}: ${String(reason)}`),
      )
      .toContainEqual(expect.stringMatching(/stopped reading.*deadline/));
  });
});
