/**
 * The project folder the bench's stand-in serves: this repository seen through symlinks (its installs,
 * deno.json, migrations, config and functions, unchanged), plus one more function, `bare`, that runs
 * bench/bare-handler.ts. The stand-in then serves /functions/v1/bare exactly as /functions/v1/api: the
 * same gateway, the same function host and flags, the same environment. The repository is not touched.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = resolve(import.meta.dirname, '..');
const TOP_LEVEL = ['node_modules', 'deno.json', 'package.json'];
export const BARE_FUNCTION = 'bare';

export interface BenchProject {
  dir: string;
  remove(): Promise<void>;
}

export async function createBenchProject(): Promise<BenchProject> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-bench-project-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    for (const name of TOP_LEVEL) await symlink(join(REPO, name), join(dir, name));
    await mirror(join(REPO, 'supabase'), join(dir, 'supabase'), 'functions');
    await mirrorFunctions(join(REPO, 'supabase', 'functions'), join(dir, 'supabase', 'functions'));
    const bare = join(dir, 'supabase', 'functions', BARE_FUNCTION);
    await mkdir(bare);
    const handler = pathToFileURL(join(REPO, 'bench', 'bare-handler.ts')).href;
    await writeFile(join(bare, 'index.ts'), `import '${handler}';\n`);
    return { dir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** A real folder whose entries are symlinks to `from`'s, but for `except`, made a real folder too. */
async function mirror(from: string, to: string, except?: string): Promise<void> {
  await mkdir(to);
  for (const entry of await readdir(from)) {
    if (entry === except) await mkdir(join(to, entry));
    else await symlink(join(from, entry), join(to, entry));
  }
}

/**
 * Each function a real folder of symlinks: the stand-in finds functions among real folders only.
 * Shared code (`_…`) and files such as `.env` are linked as they are.
 */
async function mirrorFunctions(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith('_'))
      await mirror(join(from, entry.name), join(to, entry.name));
    else await symlink(join(from, entry.name), join(to, entry.name));
  }
}
