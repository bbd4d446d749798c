import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../ports.ts';

/** Function names as the Supabase CLI accepts them; folders starting with `_` hold shared code. */
const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const HOST_SCRIPT = new URL('./deno-host.ts', import.meta.url).pathname;

export interface FunctionWorkersOptions {
  projectDir: string;
  /** The environment a hosted function gets (SUPABASE_URL, keys, SUPABASE_DB_URL, secrets). */
  env: Record<string, string>;
  onLog: (functionName: string, line: string) => void;
}

export interface FunctionWorkers {
  /** The loopback port the function listens on, or undefined when there is no such function. */
  portOf(name: string): number | undefined;
  stop(): Promise<void>;
  /** Kills every worker at once, synchronously: for the stand-in's own exit path. */
  killNow(): void;
}

/**
 * Runs every function in supabase/functions as its own Deno process. Deno's watcher restarts a
 * function when its source (or shared code) changes.
 */
/** Workers whose processes this side started, and so can kill. */
export interface LocalFunctionWorkers extends FunctionWorkers {
  /**
   * Kills the function's process at once (SIGKILL: no cleanup, as a crashed instance) and starts it again
   * on the same port; resolves once the new one is spawned (it may still be booting).
   */
  killAndRestart(name: string): Promise<void>;
}

export async function startFunctionWorkers(options: FunctionWorkersOptions): Promise<LocalFunctionWorkers> {
  const functionsDir = join(options.projectDir, 'supabase', 'functions');
  const names = await discoverFunctions(functionsDir);
  const workers = new Map<string, { port: number; child: ChildProcess }>();
  for (const name of names) {
    const port = await freePort();
    workers.set(name, { port, child: spawnWorker(name, port, options) });
  }
  return {
    portOf: (name) => workers.get(name)?.port,
    killAndRestart: async (name) => {
      const worker = workers.get(name);
      if (!worker) throw new Error(`no function named ${name}`);
      const exited = once(worker.child, 'exit');
      if (worker.child.pid !== undefined) killGroup(worker.child.pid, 'SIGKILL');
      await exited;
      workers.set(name, { port: worker.port, child: spawnWorker(name, worker.port, options) });
    },
    stop: () => Promise.all([...workers.values()].map(({ child }) => stopChild(child))).then(() => undefined),
    killNow: () => {
      for (const { child } of workers.values()) if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    },
  };
}

export async function discoverFunctions(functionsDir: string): Promise<string[]> {
  const entries = await readdir(functionsDir, { withFileTypes: true }).catch(() => []);
  const candidates = entries.filter((entry) => entry.isDirectory() && FUNCTION_NAME.test(entry.name));
  const withEntrypoint = await Promise.all(
    candidates.map(async (entry) =>
      (await stat(join(functionsDir, entry.name, 'index.ts')).catch(() => null)) ? entry.name : null,
    ),
  );
  return withEntrypoint.filter((name): name is string => name !== null);
}

/** The repository's Deno, and how it runs `handlerFile` under the function host on `port`. */
export function denoHostCommand(
  projectDir: string,
  handlerFile: string,
  port: number,
  extraFlags: readonly string[] = [],
): [string, string[]] {
  return [
    join(projectDir, 'node_modules', '.bin', 'deno'),
    [
      'run',
      '--quiet',
      '--no-prompt',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      `--config=${join(projectDir, 'deno.json')}`,
      ...extraFlags,
      HOST_SCRIPT,
      handlerFile,
      String(port),
    ],
  ];
}

function spawnWorker(name: string, port: number, options: FunctionWorkersOptions): ChildProcess {
  const [deno, args] = denoHostCommand(
    options.projectDir,
    join('supabase', 'functions', name, 'index.ts'),
    port,
    [`--watch=${join(options.projectDir, 'supabase', 'functions')}`, '--no-clear-screen'],
  );
  const child = spawn(deno, args, {
    cwd: options.projectDir,
    env: { ...inheritedEssentials(), ...options.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  forwardLines(child, (line) => options.onLog(name, line));
  return child;
}

/** The few variables Deno itself needs; the rest of the stand-in's environment stays hidden. */
function inheritedEssentials(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'DENO_DIR', 'TMPDIR', 'LANG'];
  return Object.fromEntries(keep.flatMap((key) => (process.env[key] ? [[key, process.env[key]]] : [])));
}

function forwardLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onLine(line);
    });
  }
}

/** Stops the worker and anything it started (Deno's watcher runs the function in the same group). */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  killGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
