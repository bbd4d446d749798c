/**
 * The demo workspace, so that `npm start` shows a living board: supabase/seed.sql makes it on the first
 * start of a data directory, as the Supabase CLI does on `supabase start` (docs/decisions/0019). This
 * says in the start-up log what the seed made. Local use only.
 */
import { DEMO_ACCOUNT, DEMO_WORKSPACE } from './demo-content.ts';
import { selectDemoWorkspaceCounts } from './demo-data.queries.ts';
import type { Db } from './db.ts';
import type { Log } from './log.ts';

/** Logs the demo account and the demo workspace, when the seed made them. */
export async function reportDemoData(db: Db, log: Log): Promise<void> {
  const counts = await selectDemoWorkspaceCounts(db, DEMO_WORKSPACE.slug, DEMO_ACCOUNT.email);
  if (!counts) return;
  log('auth', `created the demo account ${DEMO_ACCOUNT.email}`);
  log(
    'db',
    `created the demo workspace "${DEMO_WORKSPACE.slug}": ${counts.projects} projects, ${counts.tasks} tasks, ${counts.comments} comments`,
  );
}
