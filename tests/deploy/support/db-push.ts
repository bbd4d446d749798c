import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { HostedDatabase } from './hosted-database.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..', '..', '..');
const SUPABASE_CLI = join(REPO, 'node_modules', '.bin', 'supabase');

/**
 * `supabase db push --db-url` (with `--include-seed`, supabase/seed.sql after the migrations), from a copy
 * of supabase/ alone, as from a developer's checkout; what the CLI printed.
 */
export async function pushMigrations(
  database: HostedDatabase,
  { includeSeed = false }: { includeSeed?: boolean } = {},
): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'tasklane-push-'));
  try {
    await cp(join(REPO, 'supabase'), join(project, 'supabase'), { recursive: true });
    // Hosted requires TLS; this PostgreSQL has none, so the URL says so, as the CLI's error asks.
    const url = `${database.postgresUrl()}?sslmode=disable`;
    const flags = includeSeed ? ['--include-seed'] : [];
    const { stdout, stderr } = await run(SUPABASE_CLI, ['db', 'push', '--db-url', url, '--yes', ...flags], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: project, DO_NOT_TRACK: '1' },
    });
    return stdout + stderr;
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}
