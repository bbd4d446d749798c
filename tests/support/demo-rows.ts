import type pg from 'pg';

/** How many rows each table the demo seed writes to holds: what running it again must leave as it is. */
export async function demoRowCounts(db: pg.Client): Promise<Record<string, number>> {
  const { rows } = await db.query<Record<string, number>>(
    `select (select count(*)::int from auth.users) as users,
            (select count(*)::int from public.workspaces) as workspaces,
            (select count(*)::int from public.memberships) as memberships,
            (select count(*)::int from public.labels) as labels,
            (select count(*)::int from public.projects) as projects,
            (select count(*)::int from public.tasks) as tasks,
            (select count(*)::int from public.comments) as comments,
            (select count(*)::int from public.events) as events`,
  );
  return rows[0] ?? {};
}
