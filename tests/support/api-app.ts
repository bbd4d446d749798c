/** The app under test: the real createApp on a real database, with its logs captured. */
import type { Hono } from 'hono';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../supabase/functions/api/app.ts';
import type { AppDeps, AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { CredentialVerifier } from '../../supabase/functions/_shared/auth/credential-verifier.ts';
import { createDatabase } from '../../supabase/functions/_shared/db.ts';
import type { Mailer, OutgoingMail } from '../../supabase/functions/_shared/mail/mailer.ts';
import type { Database, StatementBounds } from '../../supabase/functions/_shared/db.ts';
import { captureLogs } from './api-logs.ts';
import type { CapturedLogs } from './api-logs.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { startTestStorage, type TestStorage } from './test-storage.ts';
import { testCredentials } from './test-users.ts';

export const WEB_ORIGIN = 'http://localhost:5173';
/** The web app's address the app under test links into (AppDeps.appUrl). */
export const TEST_APP_URL = 'https://app.tasklane.test';
/** The API's public address the app under test builds absolute links with (AppDeps.apiUrl). */
export const TEST_API_URL = 'https://project.supabase.test/functions/v1/api';

/** Rate limits too high to get in the way of a test file that sends many requests. */
export const RATE_LIMITS_OUT_OF_THE_WAY = { user: 100_000, ip: 100_000 } as const;

export interface TestApp {
  app: Hono<AppEnv>;
  db: Database;
  logs: CapturedLogs;
  /** Every mail the app sent through the default capturing mailer, oldest first. */
  sentMail: OutgoingMail[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  allowedOrigins?: readonly string[];
  extraRoutes?: Hono<AppEnv>;
  /** How bearer credentials are verified; by default access tokens signed with the test key (test-users.ts). */
  credentials?: (db: Database) => CredentialVerifier;
  /** Requests per minute per principal and per IP; the production limits by default. */
  rateLimits?: AppDeps['rateLimits'];
  /** The connection's address as the runtime would tell it; none by default, as with `app.request()`. */
  connectionAddress?: AppDeps['connectionAddress'];
  /** Proxies that append to X-Forwarded-For (AppDeps.trustedProxyHops); 1 by default. */
  trustedProxyHops?: number;
  /** How mail is sent; by default it is captured in `sentMail`. */
  mailer?: Mailer;
  /** How long an export may stream in all; the production deadline by default. */
  exportDeadlineMs?: number;
  /** How long a statement may run and a transaction idle; the production bounds by default. */
  statementBounds?: StatementBounds;
  /** Supabase Storage as the app calls it; none by default (its file routes then answer 503). */
  storage?: AppDeps['storage'];
  /** Whether issuing an upload URL sweeps expired uploads (AppDeps.sweepUploads); yes by default. */
  sweepUploads?: boolean;
  /** The project's secret key the scheduler calls the internal routes with (AppDeps.serviceKey); none by default. */
  serviceKey?: string;
  /** How long notification mail waits to batch (AppDeps.notificationMailBatchSeconds); 120 s by default. */
  notificationMailBatchSeconds?: number;
  /**
   * How webhook URLs are judged (AppDeps.webhookDestinations): by default, no name resolves and plain
   * http to loopback is allowed, as on the stand-in, so tests never look a name up.
   */
  webhookDestinations?: AppDeps['webhookDestinations'];
  /** Wakes the webhook dispatcher after a write (AppDeps.wakeWebhookDispatcher); none by default. */
  wakeWebhookDispatcher?: () => void;
}

/** Resolves nothing: a test that needs a name to resolve brings its own resolver. */
const NO_NAMES = { resolve: () => Promise.resolve([]), allowLoopbackHttp: true };

export function createTestApp(databaseUrl: string, options: TestAppOptions = {}): TestApp {
  const logs = captureLogs();
  const db = createDatabase({ url: databaseUrl, logger: logs.logger, bounds: options.statementBounds });
  const sentMail: OutgoingMail[] = [];
  const capturingMailer: Mailer = {
    send: (mail) => {
      sentMail.push(mail);
      return Promise.resolve();
    },
  };
  const deps = {
    db,
    logger: logs.logger,
    allowedOrigins: options.allowedOrigins ?? [WEB_ORIGIN],
    credentials: (options.credentials ?? testCredentials)(db),
    rateLimits: options.rateLimits,
    connectionAddress: options.connectionAddress,
    trustedProxyHops: options.trustedProxyHops,
    mailer: options.mailer ?? capturingMailer,
    appUrl: TEST_APP_URL,
    apiUrl: TEST_API_URL,
    exportDeadlineMs: options.exportDeadlineMs,
    storage: options.storage,
    sweepUploads: options.sweepUploads,
    serviceKey: options.serviceKey,
    notificationMailBatchSeconds: options.notificationMailBatchSeconds,
    webhookDestinations: options.webhookDestinations ?? NO_NAMES,
    wakeWebhookDispatcher: options.wakeWebhookDispatcher,
  };
  return { app: createApp(deps, options.extraRoutes), db, logs, sentMail, close: () => db.close() };
}

export interface UsedTestApp extends TestApp {
  /** The URL of this file's own database, for tests that look at it directly. */
  databaseUrl: string;
  /** The stand-in Storage the app calls, with `withStorage`. */
  storage: TestStorage | undefined;
}

export interface UseTestAppOptions extends TestAppOptions {
  /** Starts the stand-in's Storage service on the file's database and gives the app its client. */
  withStorage?: boolean;
}

/**
 * The usual setup of an API test file: a database of its own (cloned from the migrated template) and
 * the app on it, made before the file's tests and dropped after them.
 */
export function useTestApp({ withStorage = false, ...options }: UseTestAppOptions = {}): UsedTestApp {
  let database: TestDatabase | undefined;
  let testApp: TestApp | undefined;
  let storage: TestStorage | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    if (withStorage) storage = await startTestStorage(database.url);
    testApp = createTestApp(database.url, { ...options, storage: storage?.client ?? options.storage });
  });
  afterAll(async () => {
    await testApp?.close();
    await storage?.close();
    await database?.drop();
  });
  const current = () => {
    if (!testApp || !database) throw new Error('useTestApp(): the app exists only inside tests');
    return { ...testApp, databaseUrl: database.url, storage };
  };
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
    get logs() {
      return current().logs;
    },
    get sentMail() {
      return current().sentMail;
    },
    get databaseUrl() {
      return current().databaseUrl;
    },
    get storage() {
      return current().storage;
    },
    close: () => current().close(),
  };
}
