import type { IncomingMessage } from 'node:http';
import type { StandInKeys } from '../keys.ts';

export const MISSING_API_KEY_BODY = {
  message: 'No API key found in request',
  hint: 'No `apikey` request header or url param was found.',
};

export interface ApiKeyRule {
  /**
   * Whether a JWT in `apikey` (the legacy anon or service_role key, or a user's token) becomes the bearer
   * when the request has no Authorization. Kong's rule puts it there without `Bearer `, so Auth (GoTrue)
   * sees no bearer token: false there.
   */
  jwtKeyAsBearer: boolean;
}

/**
 * The gateway rule of the Supabase CLI's Kong, plus the hosted check that a key is present: an opaque
 * `sb_publishable_`/`sb_secret_` key becomes the anon/service_role JWT in Authorization, unless the request
 * already carries a user JWT. Returns false when the request has no API key at all.
 */
export function applyApiKey(
  req: IncomingMessage,
  url: URL,
  keys: StandInKeys,
  { jwtKeyAsBearer }: ApiKeyRule = { jwtKeyAsBearer: true },
): boolean {
  const apiKey = headerValue(req.headers.apikey) ?? url.searchParams.get('apikey');
  if (!apiKey) return false;
  const authorization = req.headers.authorization;
  if (authorization === undefined || authorization.startsWith('Bearer sb_')) {
    const jwt = jwtForApiKey(apiKey, keys);
    req.headers.authorization = jwt !== apiKey || jwtKeyAsBearer ? `Bearer ${jwt}` : apiKey;
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
