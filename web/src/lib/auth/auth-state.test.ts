import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { INITIAL_AUTH_STATE, nextAuthState, userLeft } from './auth-state.ts';

function session(userId: string): Session {
  return {
    access_token: 'a',
    refresh_token: 'r',
    expires_in: 3600,
    token_type: 'bearer',
    user: { id: userId, aud: 'authenticated', app_metadata: {}, user_metadata: {}, created_at: '' },
  };
}

describe('nextAuthState', () => {
  it('is ready after the first event, signed in or not', () => {
    expect(nextAuthState(INITIAL_AUTH_STATE, 'INITIAL_SESSION', null)).toEqual({
      ready: true,
      session: null,
      recovery: false,
    });
    expect(nextAuthState(INITIAL_AUTH_STATE, 'INITIAL_SESSION', session('u1')).session?.user.id).toBe('u1');
  });

  it('remembers a recovery link until sign-out or another user', () => {
    const recovering = nextAuthState(INITIAL_AUTH_STATE, 'PASSWORD_RECOVERY', session('u1'));
    expect(recovering.recovery).toBe(true);

    const verified = nextAuthState(recovering, 'MFA_CHALLENGE_VERIFIED', session('u1'));
    expect(verified.recovery).toBe(true);

    expect(nextAuthState(verified, 'SIGNED_IN', session('u2')).recovery).toBe(false);
    expect(nextAuthState(verified, 'SIGNED_OUT', null)).toEqual({
      ready: true,
      session: null,
      recovery: false,
    });
  });
});

describe('userLeft', () => {
  it('is true on sign-out and a switch of user, false on sign-in and a token refresh', () => {
    const signedOut = nextAuthState(INITIAL_AUTH_STATE, 'INITIAL_SESSION', null);
    const alice = nextAuthState(signedOut, 'SIGNED_IN', session('alice'));

    expect(userLeft(signedOut, alice)).toBe(false);
    expect(userLeft(alice, nextAuthState(alice, 'TOKEN_REFRESHED', session('alice')))).toBe(false);
    expect(userLeft(alice, nextAuthState(alice, 'SIGNED_IN', session('bob')))).toBe(true);
    expect(userLeft(alice, nextAuthState(alice, 'SIGNED_OUT', null))).toBe(true);
  });
});
