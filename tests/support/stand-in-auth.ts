import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient, type RealtimeClientOptions, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import ws from 'ws';
import { startStandIn, type StandInProcess } from './stand-in-process.ts';

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

/**
 * A fresh 6-digit code for `email`, from `auth.admin.generateLink`. Tasklane's mails carry only the link, but
 * the stand-in's `verifyOtp` is GoTrue's and is tested with a code. The code replaces the mailed link.
 */
export async function emailCode(
  standIn: StandInProcess,
  serviceRoleKey: string,
  email: string,
  type: 'signup' | 'recovery' | 'magiclink',
): Promise<string> {
  const admin = supabaseClient(standIn.apiUrl, serviceRoleKey).auth.admin;
  // The password of a sign-up link is ignored for an address that has signed up already.
  const { data, error } = await (type === 'signup'
    ? admin.generateLink({ type, email, password: 'ignored for an existing user' })
    : admin.generateLink({ type, email }));
  if (error) throw error;
  return data.properties.email_otp;
}

export interface UsedStandIn {
  process: StandInProcess;
  keys: StandInApiKeys;
  /** supabase-js on the anon key. */
  client(flowType?: 'implicit' | 'pkce'): SupabaseClient;
  /** A raw call to /auth/v1, on the anon key unless `call.key` says otherwise. */
  callAuth(path: string, call?: AuthCall): Promise<Response>;
  withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T>;
}

/**
 * The usual setup of a stand-in test file: a stand-in of its own (fresh data, free ports), started with
 * `env` before the file's tests and stopped after them, with its API keys.
 */
export function useStandIn(env: NodeJS.ProcessEnv = {}): UsedStandIn {
  let running: { process: StandInProcess; keys: StandInApiKeys } | undefined;
  beforeAll(async () => {
    const started = await startStandIn({ env });
    running = { process: started, keys: await standInApiKeys(started) };
  });
  afterAll(async () => {
    await running?.process.dispose();
  });
  const current = () => {
    if (!running) throw new Error('useStandIn(): the stand-in runs only inside tests');
    return running;
  };
  return {
    get process() {
      return current().process;
    },
    get keys() {
      return current().keys;
    },
    client: (flowType) => supabaseClient(current().process.apiUrl, current().keys.anonKey, flowType),
    callAuth: (path, call = {}) =>
      callAuth(current().process, path, { ...call, key: call.key ?? current().keys.anonKey }),
    withDatabase: (work) => withStandInDatabase(current().process, work),
  };
}

export interface AuthCall {
  method?: string;
  /** The `apikey` header. */
  key?: string;
  /** A bearer token for the `Authorization` header. */
  token?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A raw call to /auth/v1 with the API-version header, so that errors come back as `{code, message}`. */
function callAuth(standIn: StandInProcess, path: string, call: AuthCall): Promise<Response> {
  return fetch(`${standIn.apiUrl}/auth/v1${path}`, {
    method: call.method ?? 'GET',
    headers: {
      apikey: call.key ?? '',
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      ...call.headers,
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
}

/** A maker of e-mail addresses that no earlier call made: `${prefix}${n}.${time}@${domain}`. */
export function uniqueEmails(prefix: string, domain = 'example.com'): () => string {
  let made = 0;
  return () => {
    made += 1;
    return `${prefix}${made}.${Date.now()}@${domain}`;
  };
}
