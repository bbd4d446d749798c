import type { Session } from '@supabase/supabase-js';
import { env } from '../../config/env.ts';

/**
 * The session auth-js keeps in localStorage, read without auth-js, so that a signed-in screen can call the
 * API before supabase-js has loaded. Only a session auth-js itself would hand out as is qualifies: one
 * whose access token stays valid for a while yet (auth-js refreshes a token within 90 s of expiring, and
 * its client has loaded long before this margin runs out).
 */

const VALID_FOR_AT_LEAST_MS = 3 * 60 * 1000;

interface ReadableStorage {
  getItem(key: string): string | null;
}

/** supabase-js's own default: `sb-<first label of the project's host>-auth-token`. */
export function authStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

/** Where the app's client keeps the session: the default name, spelled out so that both read one place. */
export const AUTH_STORAGE_KEY = authStorageKey(env.supabaseUrl);

export function readStoredSession(storage: ReadableStorage, key: string, nowMs: number): Session | null {
  let stored: unknown;
  try {
    stored = JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
  if (!isSession(stored)) return null;
  return staysValid(stored, nowMs) ? stored : null;
}

/** Whether auth-js would hand the session out as is for a while yet, without refreshing it first. */
export function staysValid(session: Pick<Session, 'expires_at'>, nowMs: number): boolean {
  return session.expires_at !== undefined && session.expires_at * 1000 - nowMs >= VALID_FOR_AT_LEAST_MS;
}

/**
 * Whose session is stored, however old its access token: the person this browser last signed in, whose
 * saved data (lib/offline/saved-queries.ts) may show while offline.
 */
export function storedUserId(storage: ReadableStorage, key: string): string | null {
  try {
    const stored: unknown = JSON.parse(storage.getItem(key) ?? 'null');
    return isSession(stored) ? stored.user.id : null;
  } catch {
    return null;
  }
}

function isSession(value: unknown): value is Session & { expires_at: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { access_token, expires_at, user } = value as Record<string, unknown>;
  return (
    typeof access_token === 'string' &&
    typeof expires_at === 'number' &&
    typeof user === 'object' &&
    user !== null &&
    typeof (user as Record<string, unknown>).id === 'string'
  );
}

/**
 * Whether the address brings the result of an e-mail link (a recovery session, an error, a code): then
 * auth-js must read it, and nothing may go on without it.
 */
export function carriesAuthResult(location: { hash: string; search: string }): boolean {
  const names = [
    ...new URLSearchParams(location.hash.replace(/^#/, '')).keys(),
    ...new URLSearchParams(location.search).keys(),
  ];
  return names.some((name) => AUTH_RESULT_PARAMS.has(name));
}

const AUTH_RESULT_PARAMS = new Set(['access_token', 'refresh_token', 'error', 'error_description', 'code']);
