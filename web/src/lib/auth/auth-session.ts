import type { SupabaseClient } from '@supabase/supabase-js';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { INITIAL_AUTH_STATE, nextAuthState, type AuthState } from './auth-state.ts';
import { whenQuiet } from '../scheduling/when-quiet.ts';
import { AUTH_STORAGE_KEY, carriesAuthResult, readStoredSession, staysValid } from './stored-session.ts';
import { getSupabase, whenSupabaseLoads, type AuthChangeEvent, type Session } from '../supabase-on-demand.ts';

/**
 * The current auth session as a small store, kept in step with Supabase Auth's events.
 *
 * A signed-in screen does not wait for supabase-js: while its client loads, a stored session that auth-js
 * would hand out as is (lib/auth/stored-session.ts) answers, and the client loads once the screen has
 * shown. Any other case (no stored session, one to refresh, an e-mail link's result in the address) waits
 * for the client, as before.
 */

type AuthEventListener = (event: AuthChangeEvent, state: AuthState, previous: AuthState) => void;

/**
 * When a screen that did not need the client loads it: once nobody has pressed, moved or typed for a
 * second and the browser is idle (evaluating supabase-js takes the main thread for up to ~100 ms on a slow
 * machine: not in the middle of a drag), and at the latest after ten seconds.
 */
const CLIENT_LOAD_QUIET_MS = 1_000;
const CLIENT_LOAD_LATEST_MS = 10_000;

const storedSessionMayAnswer = !carriesAuthResult(window.location);

// Set once the client has loaded (declared before `state`, whose first value reads it).
let client: SupabaseClient | null = null;
let state: AuthState = { ...INITIAL_AUTH_STATE, session: storedSession() };
const renderSubscribers = new Set<() => void>();
const eventListeners = new Set<AuthEventListener>();
// Subscribed as soon as the client exists (whoever loads it first), before auth-js finishes reading a
// recovery link from the URL, so the PASSWORD_RECOVERY event it sends then is not missed.
whenSupabaseLoads((supabase) => {
  supabase.auth.onAuthStateChange(onAuthStateChange);
  client = supabase;
});
if (state.session)
  whenQuiet(() => void getSupabase(), { quietMs: CLIENT_LOAD_QUIET_MS, latestMs: CLIENT_LOAD_LATEST_MS });
else void getSupabase();

function onAuthStateChange(event: AuthChangeEvent, session: Session | null): void {
  const previous = state;
  state = nextAuthState(previous, event, session);
  for (const notify of renderSubscribers) notify();
  // Out of auth-js's callback: listeners call auth methods (router guards read the session), and auth-js
  // asks callers not to await its own methods inside this callback.
  setTimeout(() => {
    for (const listener of eventListeners) listener(event, state, previous);
  }, 0);
}

/**
 * The session of the client's last auth event, while its token stays valid for a while: auth-js tells
 * every refresh and sign-out (in this tab or another) as an event, so this is what `getSession` would
 * answer, without waiting for auth-js's lock and storage on every API call (a live board reads the feed
 * on each change).
 */
function lastSessionOfTheClient(): Session | null {
  const session = client ? state.session : null;
  return session && staysValid(session, Date.now()) ? session : null;
}

function storedSession(): Session | null {
  if (client || !storedSessionMayAnswer) return null;
  return readStoredSession(window.localStorage, AUTH_STORAGE_KEY, Date.now());
}

/** The current auth state, re-rendering on every change. */
export function useAuthState(): AuthState {
  return useSyncExternalStore(subscribeToRenders, () => state);
}

function subscribeToRenders(notify: () => void): () => void {
  renderSubscribers.add(notify);
  return () => renderSubscribers.delete(notify);
}

/** Calls `listener` after each auth event (sign-in, sign-out, recovery…); returns how to stop. */
export function onAuthEvent(listener: AuthEventListener): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

/** The current session, refreshed first when its access token is about to expire. */
export async function currentSession(): Promise<Session | null> {
  const known = storedSession() ?? lastSessionOfTheClient();
  if (known) return known;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session;
}

/** For the API client: the bearer token of the current session, if any. */
export async function currentAccessToken(): Promise<string | null> {
  return (await currentSession())?.access_token ?? null;
}

/**
 * The error auth-js met while reading a link's result from the URL (an expired or used recovery link
 * arrives as `#error_code=otp_expired…`), or null.
 */
export function useUrlSessionError(): unknown {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let mounted = true;
    // initialize() hands back the result of auth-js's first (and only) reading of the URL.
    void getSupabase()
      .then((supabase) => supabase.auth.initialize())
      .then((result) => {
        if (mounted) setError(result.error);
      });
    return () => {
      mounted = false;
    };
  }, []);
  return error;
}
