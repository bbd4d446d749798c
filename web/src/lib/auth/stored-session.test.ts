import { describe, expect, it, vi } from 'vitest';
import {
  AUTH_STORAGE_KEY,
  authStorageKey,
  carriesAuthResult,
  readStoredSession,
  staysValid,
} from './stored-session.ts';

vi.mock('../../config/env.ts', () => ({
  env: { supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'anon-key' },
}));

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const KEY = 'sb-127-auth-token';

function storageWith(value: unknown) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { getItem: (key: string) => (key === KEY ? text : null) };
}

function sessionExpiringIn(seconds: number) {
  return {
    access_token: 'header.payload.signature',
    refresh_token: 'refresh',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.floor(NOW / 1000) + seconds,
    user: { id: '6f1c5a8e-1b1e-4c57-9f0e-2a3b4c5d6e7f', factors: [] },
  };
}

describe('a session that stays valid (the client hands it to API calls without asking auth-js)', () => {
  it('is one whose token has three minutes or more to live, and no other', () => {
    expect(staysValid(sessionExpiringIn(180), NOW)).toBe(true);
    expect(staysValid(sessionExpiringIn(179), NOW)).toBe(false);
    expect(staysValid(sessionExpiringIn(-10), NOW)).toBe(false);
    expect(staysValid({ ...sessionExpiringIn(600), expires_at: undefined }, NOW)).toBe(false);
  });
});

describe('the stored session, read without loading supabase-js', () => {
  it('is under the key supabase-js itself uses for the project URL', () => {
    expect(authStorageKey('http://127.0.0.1:54321')).toBe('sb-127-auth-token');
    expect(authStorageKey('https://abcdefgh.supabase.co')).toBe('sb-abcdefgh-auth-token');
    expect(AUTH_STORAGE_KEY).toBe(KEY);
  });

  it('answers a session whose access token stays valid for minutes', () => {
    const stored = sessionExpiringIn(600);
    expect(readStoredSession(storageWith(stored), KEY, NOW)).toEqual(stored);
  });

  it('answers nothing for a token about to expire, which auth-js must refresh first', () => {
    expect(readStoredSession(storageWith(sessionExpiringIn(60)), KEY, NOW)).toBeNull();
    expect(readStoredSession(storageWith(sessionExpiringIn(-10)), KEY, NOW)).toBeNull();
  });

  it('answers nothing when nothing usable is stored', () => {
    expect(readStoredSession(storageWith('not json'), KEY, NOW)).toBeNull();
    expect(readStoredSession(storageWith({ access_token: 'x' }), KEY, NOW)).toBeNull();
    expect(readStoredSession({ getItem: () => null }, KEY, NOW)).toBeNull();
    const throwing = {
      getItem: () => {
        throw new Error('storage is disabled');
      },
    };
    expect(readStoredSession(throwing, KEY, NOW)).toBeNull();
  });
});

describe('an address that carries an auth result', () => {
  it('is one auth-js must read: a recovery link, an error, or a code', () => {
    expect(carriesAuthResult({ hash: '#access_token=a&type=recovery', search: '' })).toBe(true);
    expect(carriesAuthResult({ hash: '#error=access_denied&error_code=otp_expired', search: '' })).toBe(true);
    expect(carriesAuthResult({ hash: '', search: '?code=abc' })).toBe(true);
  });

  it('is not an ordinary screen with filters in its query', () => {
    expect(carriesAuthResult({ hash: '', search: '?assignee=me&view=list' })).toBe(false);
    expect(carriesAuthResult({ hash: '', search: '' })).toBe(false);
  });
});
