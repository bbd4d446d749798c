import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chown, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { postgresBinaries } from './binaries.ts';
import { postgresOsUser, type OsUser } from './os-user.ts';
import { canReach } from './reachable.ts';

export const POSTGRES_PASSWORD = 'postgres';

export interface ClusterOptions {
  dataDir: string;
  port: number;
  /** Extra `-c name=value` settings, e.g. `fsync=off` for throwaway test clusters. */
  settings?: Record<string, string>;
  /** The bootstrap superuser initdb creates: `postgres` locally; hosted Supabase's is `supabase_admin`. */
  superuser?: string;
  onLog?: (line: string) => void;
}

export interface RunningCluster {
  port: number;
  process: ChildProcess;
  /** A superuser connection string for `database`. */
  url(database?: string): string;
  /** Fast shutdown: active transactions roll back, the data is flushed. */
  stop(): Promise<void>;
  /** Immediate shutdown, synchronously (crash recovery runs at the next start): for process exit. */
  killNow(): void;
}

const READY_LINE = 'database system is ready to accept connections';

// Statements are never logged: a failed statement could carry data a log must not hold.
const BASE_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  log_min_error_statement: 'panic',
  log_min_messages: 'warning',
};

/** Starts PostgreSQL 17 on loopback, creating the cluster first if `dataDir` holds none. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const user = postgresOsUser();
  await mkdir(dirname(options.dataDir), { recursive: true });
  if (!canReach(user, dirname(options.dataDir)))
    throw new Error(
      `PostgreSQL runs as its own OS user (uid ${user.uid}), which cannot reach ${options.dataDir}: put the data directory where every user can search its parents (TASKLANE_DATA_DIR), or run as a user other than root.`,
    );
  const superuser = options.superuser ?? 'postgres';
  if (!(await isInitialised(options.dataDir))) await initialise(options.dataDir, superuser, user);
  const child = await launch(options, user);
  return {
    port: options.port,
    process: child,
    url: (database = 'postgres') =>
      `postgresql://${superuser}:${POSTGRES_PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => stopProcess(child),
    killNow: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    },
  };
}

async function isInitialised(dataDir: string): Promise<boolean> {
  return stat(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

async function initialise(dataDir: string, superuser: string, user: OsUser): Promise<void> {
  const { initdb } = await postgresBinaries(user);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chown(dataDir, user.uid, user.gid);
  const passwordFile = `${dataDir}.pwfile`;
  await writeFile(passwordFile, `${POSTGRES_PASSWORD}\n`, { mode: 0o600 });
  await chown(passwordFile, user.uid, user.gid);
  try {
    await run(
      initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${superuser}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
      ],
      user,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function launch(options: ClusterOptions, user: OsUser): Promise<ChildProcess> {
  const { postgres } = await postgresBinaries(user);
  const settings = { ...BASE_SETTINGS, ...options.settings };
  const args = ['-D', options.dataDir, '-p', String(options.port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  // Its own process group: a terminal's Ctrl-C reaches only us, and we stop the database last.
  const child = spawn(postgres, args, {
    uid: user.uid,
    gid: user.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  await waitUntilReady(child, options.onLog);
  return child;
}

function waitUntilReady(child: ChildProcess, onLog?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      for (const line of text.split('\n').filter(Boolean)) onLog?.(line);
      if (output.includes(READY_LINE)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`PostgreSQL exited during start (code ${code}):\n${output}`)),
    );
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 10_000);
  await exited;
  clearTimeout(timer);
}

function run(command: string, args: string[], user: OsUser): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { uid: user.uid, gid: user.gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (code ${code}):\n${output}`)),
    );
  });
}
