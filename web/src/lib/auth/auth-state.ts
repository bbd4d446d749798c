import type { AuthChangeEvent, Session } from '@supabase/supabase-js';

/** The signed-in state the app renders from; `ready` turns true once auth-js has read any stored session. */
export interface AuthState {
  ready: boolean;
  session: Session | null;
  /** This tab arrived through a password-recovery link (auth-js said PASSWORD_RECOVERY). */
  recovery: boolean;
}

export const INITIAL_AUTH_STATE: AuthState = { ready: false, session: null, recovery: false };

/** How one Supabase Auth event changes the state. */
export function nextAuthState(state: AuthState, event: AuthChangeEvent, session: Session | null): AuthState {
  if (event === 'SIGNED_OUT' || !session) return { ready: true, session: null, recovery: false };
  const sameUser = state.session?.user.id === session.user.id;
  return {
    ready: true,
    session,
    recovery: event === 'PASSWORD_RECOVERY' || (sameUser && state.recovery),
  };
}

/** Whether someone who was signed in is no longer (signed out, or replaced by another user). */
export function userLeft(before: AuthState, after: AuthState): boolean {
  return before.session !== null && before.session.user.id !== after.session?.user.id;
}
