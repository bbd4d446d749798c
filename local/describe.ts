import { DEMO_ACCOUNT } from './demo-content.ts';
import { apiUrl, databaseUrl, type StandInConfig, webUrl } from './config.ts';
import type { StandInKeys } from './keys.ts';

/**
 * The stand-in's addresses and keys, named as `supabase status -o json` names them, plus the mailbox
 * (Mailpit's place) and the demo account.
 */
export interface StandInDescription {
  API_URL: string;
  FUNCTIONS_URL: string;
  REALTIME_URL: string;
  TASKLANE_API_URL: string;
  DB_URL: string;
  STUDIO_URL: null;
  WEB_URL: string | null;
  MAILBOX_URL: string;
  JWKS_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
  DEMO_EMAIL: string;
  DEMO_PASSWORD: string;
}

export function describeStandIn(config: StandInConfig, keys: StandInKeys): StandInDescription {
  const api = apiUrl(config);
  return {
    API_URL: api,
    FUNCTIONS_URL: `${api}/functions/v1`,
    REALTIME_URL: `${api.replace(/^http/, 'ws')}/realtime/v1`,
    TASKLANE_API_URL: `${api}/functions/v1/api/v1`,
    DB_URL: databaseUrl(config),
    STUDIO_URL: null,
    WEB_URL: config.web ? webUrl(config) : null,
    MAILBOX_URL: `http://${config.host}:${config.ports.mailbox}`,
    JWKS_URL: `${api}/auth/v1/.well-known/jwks.json`,
    ANON_KEY: keys.anonKey,
    SERVICE_ROLE_KEY: keys.serviceRoleKey,
    PUBLISHABLE_KEY: keys.publishableKey,
    SECRET_KEY: keys.secretKey,
    DEMO_EMAIL: DEMO_ACCOUNT.email,
    DEMO_PASSWORD: DEMO_ACCOUNT.password,
  };
}

export function formatDescription(description: StandInDescription): string {
  const rows: [string, string | null][] = [
    ['Web app', description.WEB_URL],
    ['Tasklane API', description.TASKLANE_API_URL],
    ['Supabase URL', description.API_URL],
    ['Realtime', description.REALTIME_URL],
    ['Mailbox', description.MAILBOX_URL],
    ['Database', description.DB_URL],
    ['Demo account', `${description.DEMO_EMAIL} / ${description.DEMO_PASSWORD}`],
    ['anon key', description.ANON_KEY],
    ['service_role key', description.SERVICE_ROLE_KEY],
    ['Publishable key', description.PUBLISHABLE_KEY],
    ['Secret key', description.SECRET_KEY],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows
    .filter((row): row is [string, string] => row[1] !== null)
    .map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)
    .join('\n');
}
