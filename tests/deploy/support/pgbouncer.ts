import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, waitForPort } from '../../../local/ports.ts';
import { postgresOsUser } from '../../../local/postgres/os-user.ts';
import { PGBOUNCER_PATH } from '../../support/deploy-tools.ts';

export interface Pgbouncer {
  port: number;
  /** `SHOW POOLS` / `SHOW STATS` rows for the `postgres` database, from pgbouncer's console. */
  show(what: 'pools' | 'stats'): Promise<Record<string, string>>;
  /** What it logged so far (connections, errors), for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  postgresPort: number;
  /** The one user it lets in, and the password it also logs in to PostgreSQL with. */
  user: string;
  password: string;
}

const READY_TIMEOUT_MS = 10_000;
export const SERVER_CONNECTIONS = 2;

/**
 * pgbouncer in transaction mode in front of the `postgres` database, on a free loopback port: what
 * Supavisor's transaction pooler (port 6543) does to a function's connections. Each transaction may land
 * on another server connection, so a session setting or a named prepared statement would not survive.
 */
export async function startPgbouncer(options: PgbouncerOptions): Promise<Pgbouncer> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-pgbouncer-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  const user = postgresOsUser(); // It refuses to run as root, as PostgreSQL does.
  const ini = join(dir, 'pgbouncer.ini');
  const userlist = join(dir, 'userlist.txt');
  await writeFile(userlist, `"${options.user}" "${options.password}"\n`, { mode: 0o600 });
  await writeFile(ini, iniText({ ...options, port, userlist }), { mode: 0o600 });
  for (const file of [ini, userlist]) await chown(file, user.uid, user.gid);

  const child = spawn(PGBOUNCER_PATH, [ini], {
    uid: user.uid,
    gid: user.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  await Promise.race([
    waitForPort('127.0.0.1', port, READY_TIMEOUT_MS),
    once(child, 'exit').then(([code]) => {
      throw new Error(`pgbouncer exited during start (code ${String(code)}):\n${output}`);
    }),
  ]);
  return {
    port,
    show: (what) => showRow(what, options, port),
    output: () => output,
    stop: async () => {
      await stopProcess(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function showRow(
  what: 'pools' | 'stats',
  options: PgbouncerOptions,
  port: number,
): Promise<Record<string, string>> {
  const admin = new pg.Client({
    connectionString: `postgresql://${options.user}:${options.password}@127.0.0.1:${port}/pgbouncer`,
  });
  await admin.connect();
  try {
    const rows = (await admin.query<Record<string, string>>(`show ${what}`)).rows;
    const row = rows.find((candidate) => candidate.database === 'postgres');
    if (!row) throw new Error(`pgbouncer's SHOW ${what} has no row for the postgres database`);
    return row;
  } finally {
    await admin.end();
  }
}

function iniText(options: PgbouncerOptions & { port: number; userlist: string }): string {
  return [
    '[databases]',
    `postgres = host=127.0.0.1 port=${options.postgresPort} dbname=postgres`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${options.port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${options.userlist}`,
    'pool_mode = transaction',
    // Fewer server connections than the function's pool holds, so its transactions do share them.
    `default_pool_size = ${SERVER_CONNECTIONS}`,
    'max_client_conn = 100',
    'ignore_startup_parameters = extra_float_digits',
    `stats_users = ${options.user}`,
    '',
  ].join('\n');
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  await exited;
}
