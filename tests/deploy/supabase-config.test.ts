import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..', '..');
const SUPABASE = join(REPO, 'node_modules', '.bin', 'supabase');

let project: string;

// `supabase status` is the first thing a developer with Docker runs; it parses config.toml before it
// looks for containers, and names every deprecated or unknown section it meets.
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'tasklane-cli-'));
  await cp(join(REPO, 'supabase'), join(project, 'supabase'), { recursive: true });
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

test('the pinned Supabase CLI reads config.toml without an error or a warning', async () => {
  const output = await run(SUPABASE, ['status'], { cwd: project, env: { ...process.env, DO_NOT_TRACK: '1' } })
    .then(({ stdout, stderr }) => stdout + stderr)
    .catch((error: { stdout: string; stderr: string }) => error.stdout + error.stderr);
  expect(output).not.toMatch(
    /WARN|deprecated|no longer supported|invalid config|failed to (load|parse|read) config/i,
  );
  // It got past the config to where it looks for the local containers (none here: no Docker).
  expect(output).toMatch(/docker|supabase local development setup is running|Not linked/i);
});
