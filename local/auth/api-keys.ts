import type { IncomingMessage } from 'node:http';
import type { StandInKeys } from '../keys.ts';

export const MISSING_API_KEY_BODY = {
  message: 'No API key found in request',
  hint: 'No `apikey` request header or url param was found.',
};

/**
 * The gateway rule of the Supabase CLI's Kong, plus the hosted check that a key is present: an opaque
 * `sb_publishable_`/`sb_secret_` key becomes the anon/service_role JWT in Authorization, unless the request
 * already carries a user JWT. Returns false when the request has no API key at all.
 */
export function applyApiKey(req: IncomingMessage, url: URL, keys: StandInKeys): boolean {
  const apiKey = headerValue(req.headers.apikey) ?? url.searchParams.get('apikey');
  if (!apiKey) return false;
  const authorization = req.headers.authorization;
  if (authorization === undefined || authorization.startsWith('Bearer sb_')) {
    req.headers.authorization = `Bearer ${jwtForApiKey(apiKey, keys)}`;
  }
  return true;
}

/** The JWT an API key stands for: the anon/service_role JWT for an opaque key, else the key itself. */
export function jwtForApiKey(key: string, keys: StandInKeys): string {
  if (key === keys.secretKey) return keys.serviceRoleKey;
  if (key === keys.publishableKey) return keys.anonKey;
  return key;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
