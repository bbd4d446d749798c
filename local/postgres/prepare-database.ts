import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations, bootstrapSupabase, seedOnce } from './migrations.ts';

export interface PreparedDatabase {
  appliedMigrations: string[];
  seeded: boolean;
}

/** Bootstraps the Supabase basics, applies pending migrations and, when `seed` is set, seeds once. */
export async function prepareDatabase(
  url: string,
  projectDir: string,
  { seed }: { seed: boolean },
): Promise<PreparedDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await bootstrapSupabase(client);
    const appliedMigrations = await applyMigrations(client, join(projectDir, 'supabase', 'migrations'));
    const seeded = seed ? await seedOnce(client, join(projectDir, 'supabase', 'seed.sql')) : false;
    return { appliedMigrations, seeded };
  } finally {
    await client.end();
  }
}
