import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient, type RealtimeClientOptions, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import type { StandInProcess } from './stand-in-process.ts';

const run = promisify(execFile);

/** The keys `npm run status -- --json` prints for a running stand-in. */
export interface StandInApiKeys {
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
}

/** Rate limits high enough that a test file's many sign-ins and MFA calls from 127.0.0.1 never hit them. */
export const UNLIMITED_AUTH_RATES: NodeJS.ProcessEnv = {
  TASKLANE_AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
  TASKLANE_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  TASKLANE_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '100000',
  TASKLANE_AUTH_RATE_LIMIT_MFA: '100000',
};

export async function standInApiKeys(standIn: StandInProcess): Promise<StandInApiKeys> {
  const { stdout } = await run('npm', ['run', '-s', 'status', '--', '--json'], { env: standIn.env });
  const status = JSON.parse(stdout) as Record<string, string>;
  return {
    anonKey: status.ANON_KEY ?? '',
    serviceRoleKey: status.SERVICE_ROLE_KEY ?? '',
    publishableKey: status.PUBLISHABLE_KEY ?? '',
    secretKey: status.SECRET_KEY ?? '',
  };
}

/**
 * The unchanged supabase-js client, without storage or timers, with `ws` for Node 20. With `pkce`, it
 * keeps its code verifiers in memory, so the same client must exchange the code.
 */
export function supabaseClient(
  apiUrl: string,
  key: string,
  flowType: 'implicit' | 'pkce' = 'implicit',
): SupabaseClient {
  return createClient(apiUrl, key, {
    // ws's constructor type is wider than realtime-js's declared transport type.
    realtime: { transport: ws as unknown as RealtimeClientOptions['transport'] },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
  });
}

/** Runs `work` on a connection to the stand-in's database as `postgres`. */
export async function withStandInDatabase<T>(
  standIn: StandInProcess,
  work: (db: pg.Client) => Promise<T>,
): Promise<T> {
  const db = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${standIn.ports.db}/postgres`,
  });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}
