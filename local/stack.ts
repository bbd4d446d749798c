import { mkdir, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import { createAuthService } from './auth/auth-service.ts';
import { apiUrl, databaseUrl, type StandInConfig } from './config.ts';
import { openDatabase } from './db.ts';
import { reportDemoData } from './demo-data.ts';
import { functionEnvironment } from './function-env.ts';
import { startFunctionWorkers, type FunctionWorkers } from './functions/function-workers.ts';
import { startGateway } from './gateway/gateway.ts';
import { startHousekeeping } from './housekeeping.ts';
import { startScheduledCall } from './scheduled-call.ts';
import { loadOrCreateKeys, type StandInKeys } from './keys.ts';
import { isNoteworthyPostgresLine, type Log } from './log.ts';
import { createRealtimeService } from './realtime/realtime-service.ts';
import { realtimeSettings } from './realtime/stand-in-settings.ts';
import { createMailbox } from './mailbox/mailbox.ts';
import { startMailboxServer } from './mailbox/mailbox-server.ts';
import { waitForPort } from './ports.ts';
import { startCluster, type RunningCluster } from './postgres/cluster.ts';
import { clusterDirectory } from './postgres/cluster-directory.ts';
import { postgresOsUser } from './postgres/os-user.ts';
import { prepareDatabase, type PreparedDatabase } from './postgres/prepare-database.ts';
import { clearRunningState, writeRunningState } from './state.ts';
import { createStorageService } from './storage/storage-service.ts';
import { startWebServer } from './web-server.ts';

export interface RunningStack {
  keys: StandInKeys;
  firstStart: boolean;
  database: PreparedDatabase;
  stop(): Promise<void>;
  /** Synchronous last resort for process exit: kills the children that would outlive us. */
  killNow(): void;
}

const FUNCTION_BOOT_TIMEOUT_MS = 60_000;
const AUTH_POOL_SIZE = 5;
const REALTIME_POOL_SIZE = 5;

/**
 * Starts Postgres, the functions, the mailbox, the gateway (with Auth) and the web app, in that order;
 * stops them in reverse.
 */
export async function startStack(config: StandInConfig, log: Log): Promise<RunningStack> {
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse())
      await stopOne().catch((error: unknown) => log('stand-in', String(error)));
    await clearRunningState(config.dataDir);
  };
  let functions: FunctionWorkers | undefined;
  let cluster: RunningCluster | undefined;
  const killNow = () => {
    functions?.killNow();
    cluster?.killNow();
  };
  try {
    await mkdir(config.dataDir, { recursive: true });
    const keys = await loadOrCreateKeys(config.dataDir);
    const postgresDir = await clusterDirectory(config.dataDir, postgresOsUser());
    const firstStart = !(await stat(join(postgresDir, 'PG_VERSION')).catch(() => null));

    log('stand-in', firstStart ? 'creating the database cluster…' : 'starting PostgreSQL…');
    const database = await startPostgres(config, postgresDir, log);
    cluster = database;
    stoppers.push(() => database.stop());
    const prepared = await prepareDatabase(databaseUrl(config), config.projectDir, { seed: true });
    reportDatabase(prepared, log);

    functions = await startFunctionWorkers({
      projectDir: config.projectDir,
      env: await functionEnvironment(config, keys),
      onLog: (name, line) => log(name, line),
    });
    const workers = functions;
    stoppers.push(() => workers.stop());
    await waitForFunctions(config, workers);

    const authDatabase = openDatabase({
      url: databaseUrl(config),
      maxConnections: AUTH_POOL_SIZE,
      log: (line) => log('auth', line),
    });
    stoppers.push(() => authDatabase.close());
    // pg_cron's job on hosted Supabase: expired events, idempotency records and rate-limit counters.
    const housekeeping = startHousekeeping({
      db: authDatabase.statements,
      log: (line) => log('housekeeping', line),
    });
    stoppers.push(() => housekeeping.stop());
    if (prepared.seeded) await reportDemoData(authDatabase.statements, log);

    const mailbox = createMailbox();
    const mailboxServer = await startMailboxServer({
      host: config.host,
      port: config.ports.mailbox,
      mailbox,
    });
    stoppers.push(() => closeServer(mailboxServer));
    // pg_cron's and pg_net's calls on hosted Supabase: the notification mail that is due, and the
    // webhook deliveries the API's wake-ups missed, every minute.
    const notificationMail = startScheduledCall({
      name: 'notification mail',
      url: `${apiUrl(config)}/functions/v1/api/v1/internal/notification-mail`,
      secretKey: keys.secretKey,
      intervalMs: config.notificationMailIntervalMs,
      log: (line) => log('scheduler', line),
      isNews: (body) => !/"queued":0,"sent":0/.test(body),
    });
    stoppers.push(() => notificationMail.stop());
    const webhookDispatch = startScheduledCall({
      name: 'webhook dispatcher',
      url: `${apiUrl(config)}/functions/v1/webhook-dispatcher`,
      secretKey: keys.secretKey,
      intervalMs: config.webhookDispatchIntervalMs,
      log: (line) => log('scheduler', line),
    });
    stoppers.push(() => webhookDispatch.stop());

    const realtimeDatabase = openDatabase({
      url: databaseUrl(config),
      maxConnections: REALTIME_POOL_SIZE,
      log: (line) => log('realtime', line),
    });
    stoppers.push(() => realtimeDatabase.close());
    const realtime = createRealtimeService({
      database: realtimeDatabase,
      databaseUrl: databaseUrl(config),
      keys,
      settings: realtimeSettings(config),
      log: (line) => log('realtime', line),
    });

    const gateway = await startGateway({
      host: config.host,
      port: config.ports.api,
      functions: workers,
      services: {
        '/auth/v1': createAuthService({
          database: authDatabase,
          keys,
          apiUrl: apiUrl(config),
          refreshTokenReuseIntervalSeconds: config.refreshTokenReuseIntervalSeconds,
          mailer: { send: (mail) => void mailbox.deliver(mail) },
          emailConfirmations: config.auth.emailConfirmations,
          securePasswordChange: config.auth.securePasswordChange,
          secureEmailChange: config.auth.secureEmailChange,
          emailTemplates: config.auth.emailTemplates,
          redirects: {
            siteUrl: config.auth.siteUrl,
            additionalRedirectUrls: config.auth.additionalRedirectUrls,
          },
          rateLimits: config.auth.rateLimits,
        }),
        '/storage/v1': createStorageService({
          database: authDatabase,
          keys,
          root: join(config.dataDir, 'storage'),
          ...config.storage,
        }),
        '/realtime/v1': realtime.http,
      },
      upgrades: { '/realtime/v1': realtime.upgrade },
      onError: (error) =>
        log('gateway', error instanceof Error ? (error.stack ?? error.message) : String(error)),
    });
    stoppers.push(() => closeServer(gateway));
    // Before the gateway closes: its upgraded sockets would keep it open.
    stoppers.push(() => realtime.stop());

    if (config.web) {
      const web = await startWebServer({
        projectDir: config.projectDir,
        host: config.host,
        port: config.ports.web,
        supabaseUrl: apiUrl(config),
        anonKey: keys.anonKey,
      });
      stoppers.push(() => closeVite(web));
    }
    await writeRunningState(config);
    return { keys, firstStart, database: prepared, stop, killNow };
  } catch (error) {
    killNow();
    await stop();
    throw error;
  }
}

async function startPostgres(config: StandInConfig, dataDir: string, log: Log): Promise<RunningCluster> {
  const cluster = await startCluster({
    dataDir,
    port: config.ports.db,
    onLog: (line) => isNoteworthyPostgresLine(line) && log('db', line),
  });
  cluster.process.once('exit', (code, signal) =>
    log('db', `PostgreSQL stopped (code ${code}, signal ${signal})`),
  );
  return cluster;
}

function reportDatabase(database: PreparedDatabase, log: Log): void {
  const count = database.appliedMigrations.length;
  log(
    'db',
    count === 0
      ? 'migrations up to date'
      : `applied ${count} migration(s): ${database.appliedMigrations.join(', ')}`,
  );
  if (database.seeded) log('db', 'seeded supabase/seed.sql');
}

async function waitForFunctions(config: StandInConfig, workers: FunctionWorkers): Promise<void> {
  for (const name of ['api', 'webhook-dispatcher']) {
    const port = workers.portOf(name);
    if (port !== undefined) await waitForPort(config.host, port, FUNCTION_BOOT_TIMEOUT_MS);
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function closeVite(server: ViteDevServer): Promise<void> {
  await server.close();
}
