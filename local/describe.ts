import { apiUrl, databaseUrl, type StandInConfig, webUrl } from './config.ts';
import type { StandInKeys } from './keys.ts';

/** The stand-in's addresses and keys, named as `supabase status -o json` names them. */
export interface StandInDescription {
  API_URL: string;
  FUNCTIONS_URL: string;
  TASKLANE_API_URL: string;
  DB_URL: string;
  STUDIO_URL: null;
  WEB_URL: string | null;
  JWKS_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
}

export function describeStandIn(config: StandInConfig, keys: StandInKeys): StandInDescription {
  const api = apiUrl(config);
  return {
    API_URL: api,
    FUNCTIONS_URL: `${api}/functions/v1`,
    TASKLANE_API_URL: `${api}/functions/v1/api/v1`,
    DB_URL: databaseUrl(config),
    STUDIO_URL: null,
    WEB_URL: config.web ? webUrl(config) : null,
    JWKS_URL: `${api}/auth/v1/.well-known/jwks.json`,
    ANON_KEY: keys.anonKey,
    SERVICE_ROLE_KEY: keys.serviceRoleKey,
    PUBLISHABLE_KEY: keys.publishableKey,
    SECRET_KEY: keys.secretKey,
  };
}

export function formatDescription(description: StandInDescription): string {
  const rows: [string, string | null][] = [
    ['Web app', description.WEB_URL],
    ['Tasklane API', description.TASKLANE_API_URL],
    ['Supabase URL', description.API_URL],
    ['Database', description.DB_URL],
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
