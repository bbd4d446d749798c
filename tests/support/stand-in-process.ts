import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { freePort } from '../../local/ports.ts';

const PROJECT_DIR = resolve(import.meta.dirname, '..', '..');
const READY_LINE = 'Tasklane is running.';
const TEMP_PREFIX = 'tasklane-standin-';

export interface StandInPorts {
  api: number;
  db: number;
  mailbox: number;
  web: number;
}

export interface StandInProcess {
  child: ChildProcess;
  ports: StandInPorts;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  apiUrl: string;
  webUrl: string;
  /** Everything the stand-in printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and waits for the process to exit; returns its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops it and removes its data directory (unless `keepData`). */
  dispose(options?: { keepData?: boolean }): Promise<void>;
}

export interface StandInOptions {
  web?: boolean;
  /** Reuse a data directory (to test restarts); a fresh temporary one by default. */
  dataDir?: string;
  ports?: Partial<StandInPorts>;
  /** The project folder the stand-in serves (its cwd); this repository by default. */
  projectDir?: string;
  /** A copy of this repository whose own `local/main.ts` runs (and serves itself, unless projectDir). */
  checkout?: string;
  /** Extra environment variables, e.g. TASKLANE_AUTH_REFRESH_TOKEN_REUSE_INTERVAL. */
  env?: NodeJS.ProcessEnv;
}

/** Runs the stand-in as `npm start` does, on free ports, and resolves once it says it is ready. */
export async function startStandIn(options: StandInOptions = {}): Promise<StandInProcess> {
  const launched = await launchStandIn(options);
  await waitForOutput(launched, READY_LINE, 180_000);
  return launched;
}

/** Runs the stand-in without waiting for it to be ready (to watch it fail). */
export async function launchStandIn(options: StandInOptions = {}): Promise<StandInProcess> {
  const dataDir = options.dataDir ?? (await temporaryDataDir());
  const ports: StandInPorts = {
    api: options.ports?.api ?? (await freePort()),
    db: options.ports?.db ?? (await freePort()),
    mailbox: options.ports?.mailbox ?? (await freePort()),
    web: options.ports?.web ?? (await freePort()),
  };
  const env = { ...standInEnv(dataDir, ports, options.web ?? false), ...options.env };
  const checkout = options.checkout ?? PROJECT_DIR;
  const child = spawn(process.execPath, ['--import', 'tsx', join(checkout, 'local', 'main.ts')], {
    cwd: options.projectDir ?? checkout,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = once(child, 'exit');
    child.kill(signal);
    const [code] = (await exited) as [number | null];
    return code;
  };
  return {
    child,
    ports,
    dataDir,
    env,
    apiUrl: `http://127.0.0.1:${ports.api}`,
    webUrl: `http://localhost:${ports.web}`,
    output: () => output,
    stop,
    dispose: async ({ keepData = false } = {}) => {
      await stop();
      if (keepData) return;
      const parent = dirname(dataDir);
      await rm(basename(parent).startsWith(TEMP_PREFIX) ? parent : dataDir, { recursive: true, force: true });
    },
  };
}

export function standInEnv(dataDir: string, ports: StandInPorts, web: boolean): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TASKLANE_DATA_DIR: dataDir,
    TASKLANE_API_PORT: String(ports.api),
    TASKLANE_DB_PORT: String(ports.db),
    TASKLANE_MAILBOX_PORT: String(ports.mailbox),
    TASKLANE_WEB_PORT: String(ports.web),
    TASKLANE_WEB: web ? 'on' : 'off',
  };
}

export async function temporaryDataDir(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  await chmod(parent, 0o755); // PostgreSQL runs as its own OS user when we are root.
  return join(parent, 'data');
}

/** Resolves when the output contains `text`; rejects if the process exits first or time runs out. */
export function waitForOutput(standIn: StandInProcess, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(check, 50);
    const deadline = Date.now() + timeoutMs;
    function check() {
      if (standIn.output().includes(text)) return done(resolve);
      if (standIn.child.exitCode !== null) return done(() => reject(new Error(failure('exited'))));
      if (Date.now() > deadline) done(() => reject(new Error(failure('timed out'))));
    }
    function done(settle: () => void) {
      clearInterval(timer);
      settle();
    }
    function failure(what: string) {
      return `The stand-in ${what} before printing "${text}". Output:\n${standIn.output()}`;
    }
  });
}
