import { readdir, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type pg from 'pg';

const BOOTSTRAP_SQL = new URL('./bootstrap.sql', import.meta.url);
const MIGRATION_FILE = /^([0-9]+)_(.*)\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** Gives a plain PostgreSQL what a fresh Supabase database has: roles, schemas, auth tables and helpers. */
export async function bootstrapSupabase(client: pg.Client): Promise<void> {
  await client.query(await readFile(BOOTSTRAP_SQL, 'utf8'));
}

/** The migrations in `dir`, in version order, as the Supabase CLI names and orders them. */
export async function readMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => MIGRATION_FILE.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const [, version = '', name = ''] = MIGRATION_FILE.exec(file) ?? [];
      return { version, name, sql: await readFile(join(dir, file), 'utf8') };
    }),
  );
}

/**
 * Applies each migration not yet recorded in supabase_migrations.schema_migrations, each in its own
 * transaction, and records it as `supabase db push` does. Returns the versions it applied.
 */
export async function applyMigrations(client: pg.Client, dir: string): Promise<string[]> {
  const applied = await appliedMigrations(client);
  const migrations = await readMigrations(dir);
  refuseForeignHistory(applied, migrations);
  const pending = migrations.filter((migration) => !applied.has(migration.version));
  for (const migration of pending) await applyOne(client, migration);
  return pending.map((migration) => migration.version);
}

/** The applied migrations' names by version, as supabase_migrations.schema_migrations records them. */
async function appliedMigrations(client: pg.Client): Promise<Map<string, string>> {
  const result = await client.query<{ version: string; name: string | null }>(
    'select version, name from supabase_migrations.schema_migrations',
  );
  return new Map(result.rows.map((row) => [row.version, row.name ?? '']));
}

/**
 * A database migrated with files the folder no longer has (as after the fold of 2026-11-25) would
 * silently skip their replacements; `supabase db push` refuses such a history too.
 */
function refuseForeignHistory(applied: Map<string, string>, migrations: readonly Migration[]): void {
  const names = new Map(migrations.map((migration) => [migration.version, migration.name]));
  for (const [version, name] of applied) {
    if (names.get(version) === name) continue;
    throw new Error(
      `This database was migrated with ${version}_${name}.sql, which supabase/migrations no longer has: run \`npm run reset\` to start afresh.`,
    );
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  await client.query('begin');
  try {
    await client.query(migration.sql);
    await client.query(
      'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
      [migration.version, migration.name, [migration.sql]],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${migration.version}_${migration.name}.sql failed: ${reason}`);
  }
}

/** Runs the seed file once per database, recording it in supabase_migrations.seed_files as the CLI does. */
export async function seedOnce(client: pg.Client, seedPath: string): Promise<boolean> {
  const sql = await readFile(seedPath, 'utf8').catch(() => null);
  if (sql === null) return false;
  const seeded = await client.query('select 1 from supabase_migrations.seed_files where path = $1', [
    'supabase/seed.sql',
  ]);
  if (seeded.rowCount) return false;
  await client.query('begin');
  try {
    await client.query(sql);
    await client.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
      'supabase/seed.sql',
      createHash('sha256').update(sql).digest('hex'),
    ]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  return true;
}
