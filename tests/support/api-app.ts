/** The app under test: the real createApp on a real database, with its logs captured. */
import type { Hono } from 'hono';
import { createApp } from '../../supabase/functions/api/app.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { createDatabase } from '../../supabase/functions/_shared/db.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { captureLogs } from './api-logs.ts';
import type { CapturedLogs } from './api-logs.ts';

export const WEB_ORIGIN = 'http://localhost:5173';

export interface TestApp {
  app: Hono<AppEnv>;
  db: Database;
  logs: CapturedLogs;
  close(): Promise<void>;
}

export interface TestAppOptions {
  allowedOrigins?: readonly string[];
  extraRoutes?: Hono<AppEnv>;
}

export function createTestApp(databaseUrl: string, options: TestAppOptions = {}): TestApp {
  const logs = captureLogs();
  const db = createDatabase({ url: databaseUrl, logger: logs.logger });
  const deps = { db, logger: logs.logger, allowedOrigins: options.allowedOrigins ?? [WEB_ORIGIN] };
  return { app: createApp(deps, options.extraRoutes), db, logs, close: () => db.close() };
}
