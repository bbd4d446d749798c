import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HOSTED_DENO } from '../../support/deploy-tools.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..', '..', '..');
const SUPABASE_CLI = join(REPO, 'node_modules', '.bin', 'supabase');

export const PROJECT_REF = 'tasklanefakeprojects';
export const ACCESS_TOKEN = `sbp_${'0123456789abcdef'.repeat(3).slice(0, 40)}`;

/**
 * A port nothing listens on, as the proxy for anything but 127.0.0.1: if the CLI or Deno reached for the
 * internet (telemetry, an update check, the npm registry), that request would fail instead of leaving the
 * machine.
 */
const NOWHERE = 'http://127.0.0.1:9';
const OFFLINE = { HTTPS_PROXY: NOWHERE, HTTP_PROXY: NOWHERE, NO_PROXY: '127.0.0.1', NO_COLOR: '1' };

/**
 * `supabase functions deploy <name> --use-api` from `project` (a copy of supabase/), with a CLI profile
 * whose Management API is `apiUrl`; what the CLI printed.
 */
export async function deployFunction(project: string, name: string, apiUrl: string): Promise<string> {
  const profile = join(project, 'loopback-profile.json');
  await writeFile(
    profile,
    JSON.stringify({
      name: 'loopback',
      api_url: apiUrl,
      dashboard_url: `${apiUrl}/dashboard`,
      project_host: 'localhost',
    }),
  );
  const args = ['functions', 'deploy', name, '--use-api', '--project-ref', PROJECT_REF, '--profile', profile];
  const { stdout, stderr } = await run(SUPABASE_CLI, args, {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: project,
      SUPABASE_ACCESS_TOKEN: ACCESS_TOKEN,
      DO_NOT_TRACK: '1',
      SUPABASE_TELEMETRY_DISABLED: '1',
      SUPABASE_NO_UPDATE_NOTIFIER: '1',
      ...OFFLINE,
    },
  });
  return stdout + stderr;
}

interface DenoDependency {
  code?: { specifier?: string };
  type?: { specifier?: string };
}

interface DenoInfo {
  roots: string[];
  modules: { specifier: string; dependencies?: DenoDependency[] }[];
}

/** The local files a function's entrypoint reaches, as paths relative to the project directory. */
export interface LocalModuleGraph {
  /** Through imports its code runs: what the bundle cannot do without. */
  code: string[];
  /** Through `import type` too (Deno type-checks them; nothing loads them at run time). */
  codeAndTypes: string[];
}

/**
 * The function's module graph, computed by `deno info` (the hosted Deno version) with the function's
 * own deno.json. npm: packages are not fetched: they stay specifiers.
 */
export async function localModuleGraph(project: string, name: string): Promise<LocalModuleGraph> {
  const functionDir = join(project, 'supabase', 'functions', name);
  const { stdout } = await run(
    HOSTED_DENO,
    ['info', '--json', `--config=${join(functionDir, 'deno.json')}`, join(functionDir, 'index.ts')],
    {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: project, DENO_DIR: join(project, 'deno-dir'), ...OFFLINE },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const info = JSON.parse(stdout) as DenoInfo;
  const toPath = (specifier: string) => relative(project, fileURLToPath(specifier));
  return {
    code: reachedFiles(info, false).map(toPath).sort(),
    codeAndTypes: reachedFiles(info, true).map(toPath).sort(),
  };
}

function reachedFiles(info: DenoInfo, followTypeImports: boolean): string[] {
  const modules = new Map(info.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const pending = [...info.roots];
  for (let specifier = pending.pop(); specifier !== undefined; specifier = pending.pop()) {
    if (reached.has(specifier) || !specifier.startsWith('file:')) continue;
    reached.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code?.specifier) pending.push(dependency.code.specifier);
      if (followTypeImports && dependency.type?.specifier) pending.push(dependency.type.specifier);
    }
  }
  return [...reached];
}
