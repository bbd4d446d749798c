import { useEffect, useState, useSyncExternalStore } from 'react';
import { INITIAL_AUTH_STATE, nextAuthState, type AuthState } from './auth-state.ts';
import { supabase, type AuthChangeEvent, type Session } from '../supabase.ts';

/** The current auth session as a small store, kept in step with Supabase Auth's events. */

type AuthEventListener = (event: AuthChangeEvent, state: AuthState, previous: AuthState) => void;

let state: AuthState = INITIAL_AUTH_STATE;
const renderSubscribers = new Set<() => void>();
const eventListeners = new Set<AuthEventListener>();

// Subscribed as the module loads, before auth-js finishes reading a recovery link from the URL, so the
// PASSWORD_RECOVERY event it sends then is not missed.
supabase.auth.onAuthStateChange((event, session) => {
  const previous = state;
  state = nextAuthState(previous, event, session);
  for (const notify of renderSubscribers) notify();
  // Out of auth-js's callback: listeners call auth methods (router guards read the session), and auth-js
  // asks callers not to await its own methods inside this callback.
  setTimeout(() => {
    for (const listener of eventListeners) listener(event, state, previous);
  }, 0);
});

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
    void supabase.auth.initialize().then((result) => {
      if (mounted) setError(result.error);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return error;
}
