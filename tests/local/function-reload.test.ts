import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStandIn, type StandInProcess } from '../support/stand-in-process.ts';

const REPO = resolve(import.meta.dirname, '..', '..');
const REPO_FUNCTION_CONFIG = join(REPO, 'supabase', 'functions', 'api', 'deno.json');
let project: string;
let standIn: StandInProcess;

function greeter(greeting: string): string {
  return `Deno.serve((req) => Response.json({ greeting: '${greeting}', path: new URL(req.url).pathname }));\n`;
}

// A project folder of its own (sharing this repo's installs and migrations) with one small function,
// so the test can edit function source without touching the repository.
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'tasklane-project-'));
  for (const shared of ['node_modules', 'deno.json', 'package.json']) {
    await symlink(join(REPO, shared), join(project, shared));
  }
  await mkdir(join(project, 'supabase', 'functions', 'greeter'), { recursive: true });
  // deno.json takes its import map from the API function's own deno.json.
  await mkdir(join(project, 'supabase', 'functions', 'api'));
  await symlink(REPO_FUNCTION_CONFIG, join(project, 'supabase', 'functions', 'api', 'deno.json'));
  await symlink(join(REPO, 'supabase', 'migrations'), join(project, 'supabase', 'migrations'));
  // A Supabase project has its config.toml; the stand-in reads the mail templates it names.
  for (const shared of ['config.toml', 'templates']) {
    await symlink(join(REPO, 'supabase', shared), join(project, 'supabase', shared));
  }
  await writeFile(join(project, 'supabase', 'functions', 'greeter', 'index.ts'), greeter('hello'));
  standIn = await startStandIn({ projectDir: project });
});

afterAll(async () => {
  await standIn.dispose();
  await rm(project, { recursive: true, force: true });
});

test('a function sees its own path, as under the hosted gateway', async () => {
  const response = await fetch(`${standIn.apiUrl}/functions/v1/greeter/some/path?x=1`);
  expect(await response.json()).toEqual({ greeting: 'hello', path: '/greeter/some/path' });
});

test('editing a function restarts it with the new source', async () => {
  await writeFile(join(project, 'supabase', 'functions', 'greeter', 'index.ts'), greeter('edited'));
  await expect
    .poll(
      async () => {
        const response = await fetch(`${standIn.apiUrl}/functions/v1/greeter/`);
        return ((await response.json()) as { greeting: string }).greeting;
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBe('edited');
});
