import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { apiUrl, databaseUrl, webUrl, type StandInConfig } from './config.ts';
import { publicJwks, type StandInKeys } from './keys.ts';

/**
 * The environment a hosted Edge Function gets, pointed at the stand-in, plus the project's own secrets
 * from supabase/functions/.env (what `supabase secrets set` holds in production). Mail goes to the
 * mailbox's relay endpoint and links in it point at the web app; both can be overridden there too.
 */
export async function functionEnvironment(
  config: StandInConfig,
  keys: StandInKeys,
): Promise<Record<string, string>> {
  const web = config.ports.web;
  return {
    ALLOWED_ORIGINS: `http://localhost:${web},http://127.0.0.1:${web}`,
    APP_URL: webUrl(config),
    MAIL_API_URL: `http://${config.host}:${config.ports.mailbox}/api/messages`,
    ...(await projectSecrets(config.projectDir)),
    SUPABASE_URL: apiUrl(config),
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
    SUPABASE_DB_URL: databaseUrl(config),
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: keys.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: keys.secretKey }),
    SUPABASE_JWKS: JSON.stringify(publicJwks(keys)),
  };
}

async function projectSecrets(projectDir: string): Promise<Record<string, string>> {
  const text = await readFile(join(projectDir, 'supabase', 'functions', '.env'), 'utf8').catch(() => '');
  const parsed = parseEnv(text) as Record<string, string | undefined>;
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
