import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { apiUrl, databaseUrl, webUrl, type StandInConfig } from './config.ts';
import { publicJwks, type StandInKeys } from './keys.ts';

/** The API's settings the stand-in hands on from its own environment when they are set there. */
const PASSED_THROUGH = [
  'RATE_LIMIT_USER_PER_MINUTE',
  'RATE_LIMIT_IP_PER_MINUTE',
  'NOTIFICATION_MAIL_BATCH_SECONDS',
] as const;

/**
 * The environment a hosted Edge Function gets, pointed at the stand-in, plus the project's own secrets
 * from supabase/functions/.env (what `supabase secrets set` holds in production). Mail goes to the
 * mailbox's relay endpoint and links in it point at the web app; both can be overridden there too.
 * Rate limits set in the stand-in's own environment win over that file (`npm run bench` raises them).
 */
export async function functionEnvironment(
  config: StandInConfig,
  keys: StandInKeys,
  standInEnv: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const web = config.ports.web;
  return {
    ALLOWED_ORIGINS: `http://localhost:${web},http://127.0.0.1:${web}`,
    APP_URL: webUrl(config),
    MAIL_API_URL: `http://${config.host}:${config.ports.mailbox}/api/messages`,
    ...(await projectSecrets(config.projectDir)),
    ...passedThrough(standInEnv),
    SUPABASE_URL: apiUrl(config),
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
    SUPABASE_DB_URL: databaseUrl(config),
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: keys.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: keys.secretKey }),
    SUPABASE_JWKS: JSON.stringify(publicJwks(keys)),
    // Receivers on this machine are the only ones a local webhook can reach over plain http.
    TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
  };
}

async function projectSecrets(projectDir: string): Promise<Record<string, string>> {
  const text = await readFile(join(projectDir, 'supabase', 'functions', '.env'), 'utf8').catch(() => '');
  const parsed = parseEnv(text) as Record<string, string | undefined>;
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function passedThrough(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(PASSED_THROUGH.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}
