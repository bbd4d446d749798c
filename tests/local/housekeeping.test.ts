/**
 * The stand-in does what pg_cron does on hosted Supabase (local/housekeeping.ts): when it starts, and
 * hourly after that, it deletes events past 30 days, expired idempotency records and stale rate-limit
 * counters. Rows made expired while one run is stopped are gone soon after the next start.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, test } from 'vitest';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';

async function connectTo(standIn: StandInProcess): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${standIn.ports.db}/postgres`,
  });
  await client.connect();
  return client;
}

interface Leftovers {
  events: number;
  idempotencyKeys: number;
  counters: number;
}

async function expiredRowsOf(client: pg.Client, workspaceId: string, userId: string): Promise<Leftovers> {
  const { rows } = await client.query<Leftovers>(
    `select
       (select count(*)::int from public.events where workspace_id = $1) as "events",
       (select count(*)::int from public.idempotency_keys where user_id = $2) as "idempotencyKeys",
       (select count(*)::int from private.rate_limit_counters where bucket = 'user:' || $2) as "counters"`,
    [workspaceId, userId],
  );
  if (!rows[0]) throw new Error('no counts');
  return rows[0];
}

test('the stand-in deletes what has expired when it starts', async () => {
  const first = await startStandIn();
  let second: StandInProcess | undefined;
  try {
    const userId = randomUUID();
    const client = await connectTo(first);
    await client.query(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', now(), now())`,
      [userId, `${userId}@housekeeping.test`],
    );
    const { rows } = await client.query<{ id: string }>(
      `insert into public.workspaces (slug, name, created_by) values ($1, 'Old', $2) returning id`,
      [`old-${userId.slice(0, 8)}`, userId],
    );
    const workspaceId = rows[0]?.id ?? '';
    await client.query(
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`,
      [workspaceId, userId],
    );
    await client.query(
      `update public.events set created_at = now() - interval '31 days' where workspace_id = $1`,
      [workspaceId],
    );
    await client.query(
      `insert into public.idempotency_keys (user_id, principal, key, request_hash, response, created_at, expires_at)
       values ($1::uuid, 'user:' || $1::text, 'old', repeat('a', 64), '{}', now() - interval '2 days', now() - interval '1 day')`,
      [userId],
    );
    await client.query(
      `insert into private.rate_limit_counters (bucket, window_started_at, hits)
       values ('user:' || $1::text, now() - interval '2 hours', 5)`,
      [userId],
    );
    expect(await expiredRowsOf(client, workspaceId, userId)).toEqual({
      events: 1,
      idempotencyKeys: 1,
      counters: 1,
    });
    await client.end();
    expect(await first.stop('SIGTERM')).toBe(0);

    second = await startStandIn({ dataDir: first.dataDir, ports: first.ports });
    const again = await connectTo(second);
    try {
      await expect
        .poll(() => expiredRowsOf(again, workspaceId, userId), { timeout: 10_000 })
        .toEqual({ events: 0, idempotencyKeys: 0, counters: 0 });
    } finally {
      await again.end();
    }
    expect(second.output()).toMatch(
      /\[housekeeping\] deleted expired rows: \d+ events, \d+ idempotency_keys, \d+ rate_limit_counters/,
    );
  } finally {
    await (second ?? first).dispose();
  }
});
