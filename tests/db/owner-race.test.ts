/**
 * A workspace keeps an owner even when two owner changes race (the first security review, item 3): each runs
 * straight in SQL as `authenticated`, as a /rest/v1 call would, in a transaction of its own. A's change is
 * held open; B's starts, and must wait for A rather than count owners that A is about to remove.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { blockedBy, holdTransactionAs } from '../support/held-transaction.ts';
import { useSqlAsUser } from '../support/sql-as-user.ts';

describe('the last owner under concurrent changes', () => {
  const sqlTest = useSqlAsUser('owner-race.test');

  /** A workspace with two owners, and its id. */
  async function twoOwners(): Promise<{ id: string; first: string; second: string }> {
    const first = await sqlTest.newUser();
    const second = await sqlTest.newUser();
    const { rows } = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (name, slug, created_by) values ('Race', $1, $2) returning id`,
      [`race-${randomUUID().slice(0, 8)}`, first],
    );
    const id = rows[0]?.id ?? '';
    await sqlTest.db.query(
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'owner')`,
      [id, first, second],
    );
    return { id, first, second };
  }

  const owners = async (workspaceId: string) =>
    (
      await sqlTest.db.query<{ user_id: string }>(
        `select user_id from public.memberships where workspace_id = $1 and role = 'owner'`,
        [workspaceId],
      )
    ).rows.map((row) => row.user_id);

  const leave = 'delete from public.memberships where workspace_id = $1 and user_id = $2';
  const demote = `update public.memberships set role = 'admin' where workspace_id = $1 and user_id = $2`;

  /** Runs `a` in a held transaction, then `b`, which must wait for A; commits A; B's outcome. */
  async function race(
    a: { as: string; sql: string; values: unknown[] },
    b: { as: string; sql: string; values: unknown[] },
  ) {
    const first = await holdTransactionAs(sqlTest.url, a.as);
    const second = await holdTransactionAs(sqlTest.url, b.as);
    try {
      expect(await first.run(a.sql, a.values)).toHaveProperty('rows');
      const outcome = second.run(b.sql, b.values);
      const waited = await blockedBy(sqlTest.db, first.pid, outcome);
      await first.commit();
      const result = await outcome;
      if ('rows' in result) await second.commit();
      return { waited, result };
    } finally {
      await first.close();
      await second.close();
    }
  }

  test('two owners leaving at once: the second waits for the first, then is refused', async () => {
    const workspace = await twoOwners();
    const { waited, result } = await race(
      { as: workspace.first, sql: leave, values: [workspace.id, workspace.first] },
      { as: workspace.second, sql: leave, values: [workspace.id, workspace.second] },
    );
    expect(result).toEqual({ refused: 'last_owner' });
    expect(waited).toBe('blocked');
    expect(await owners(workspace.id)).toEqual([workspace.second]);
  });

  test('an owner demoting the other while the other removes them: one of them stays owner', async () => {
    const workspace = await twoOwners();
    const { waited, result } = await race(
      { as: workspace.first, sql: demote, values: [workspace.id, workspace.second] },
      { as: workspace.second, sql: leave, values: [workspace.id, workspace.first] },
    );
    expect(result).toEqual({ refused: 'last_owner' });
    expect(waited).toBe('blocked');
    expect(await owners(workspace.id)).toEqual([workspace.first]);
  });

  test('an owner demoting themselves while the other leaves: the leaver is refused', async () => {
    const workspace = await twoOwners();
    const { result } = await race(
      { as: workspace.first, sql: demote, values: [workspace.id, workspace.first] },
      { as: workspace.second, sql: leave, values: [workspace.id, workspace.second] },
    );
    expect(result).toEqual({ refused: 'last_owner' });
    expect(await owners(workspace.id)).toEqual([workspace.second]);
  });

  test('a workspace deleted while an owner leaves: neither deadlocks, the workspace is gone', async () => {
    const workspace = await twoOwners();
    const { result } = await race(
      { as: workspace.first, sql: leave, values: [workspace.id, workspace.first] },
      {
        as: workspace.second,
        sql: 'delete from public.workspaces where id = $1 returning id',
        values: [workspace.id],
      },
    );
    expect(result).toEqual({ rows: [{ id: workspace.id }] });
    expect(await owners(workspace.id)).toEqual([]);
  });
});
