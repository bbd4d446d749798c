import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { killGroup } from '../../../local/functions/function-workers.ts';
import { freePort } from '../../../local/ports.ts';
import { HOSTED_DENO } from '../../support/deploy-tools.ts';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const SERVE_ON_PORT = join(REPO, 'local', 'functions', 'serve-on-port.ts');
const PORT_VARIABLE = 'TASKLANE_DEPLOY_HOST_PORT';

/** How this machine reaches the npm registry (a proxy, an egress CA), which the function's code never reads. */
const NETWORK_VARIABLES = [
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
  'NPM_CONFIG_REGISTRY',
];

function registryAccess(): Record<string, string> {
  const passed = NETWORK_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []));
  // Deno trusts its own copy of Mozilla's roots; the machine's store adds any CA its egress needs, as
  // NODE_EXTRA_CA_CERTS does for npm.
  return { ...Object.fromEntries(passed), DENO_TLS_CA_STORE: 'mozilla,system' };
}

export interface HostedFunction {
  port: number;
  /** Everything Deno and the function printed so far. */
  output(): string;
  /** Resolves once the function listens; rejects if it exits first or `timeoutMs` passes. */
  ready(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Serves supabase/functions/<name> the way hosted Supabase gets it: a copy of supabase/functions alone
 * (no node_modules, no root deno.json, no package.json), the function's own deno.json, npm packages
 * fetched from the registry into an empty DENO_DIR, only --allow-net and --allow-env, and nothing in
 * the environment but `env`. A two-line host, statically importing (dynamic imports of local files need
 * --allow-read), points the function's own Deno.serve() at a free port, as the runtime does.
 */
export async function startHostedFunction(
  name: string,
  env: Record<string, string>,
): Promise<HostedFunction> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-edge-'));
  await cp(join(REPO, 'supabase', 'functions'), join(dir, 'functions'), { recursive: true });
  await copyFile(SERVE_ON_PORT, join(dir, 'serve-on-port.ts'));
  await writeFile(
    join(dir, 'listen.ts'),
    `import { serveOnPort } from './serve-on-port.ts';\nserveOnPort(Number(Deno.env.get('${PORT_VARIABLE}')));\n`,
  );
  await writeFile(join(dir, 'host.ts'), `import './listen.ts';\nimport './functions/${name}/index.ts';\n`);
  const denoDir = join(dir, 'deno-dir');
  await mkdir(denoDir);

  const port = await freePort();
  const args = [
    'run',
    '--no-prompt',
    '--allow-net',
    '--allow-env',
    `--config=${join(dir, 'functions', name, 'deno.json')}`,
    join(dir, 'host.ts'),
  ];
  const child = spawn(HOSTED_DENO, args, {
    cwd: dir,
    env: { ...env, ...registryAccess(), [PORT_VARIABLE]: String(port), DENO_DIR: denoDir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const exited = once(child, 'exit');

  return {
    port,
    output: () => output,
    ready: (timeoutMs) =>
      new Promise((resolveReady, reject) => {
        const deadline = Date.now() + timeoutMs;
        const timer = setInterval(() => {
          if (output.includes(`listening on ${port}`)) {
            clearInterval(timer);
            resolveReady();
          } else if (child.exitCode !== null || Date.now() > deadline) {
            clearInterval(timer);
            const what = child.exitCode !== null ? 'exited' : `did not listen within ${timeoutMs} ms`;
            reject(new Error(`Deno ${name} ${what}. Output:\n${output}`));
          }
        }, 50);
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        killGroup(child.pid, 'SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
