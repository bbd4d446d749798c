import type { AuthChangeEvent, Session, SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('../../config/env.ts', () => ({
  env: { supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'anon-key' },
}));

/** A stand-in for the loaded supabase-js client: its auth events are sent by the test, getSession counted. */
const auth = vi.hoisted(() => ({
  listener: null as ((event: AuthChangeEvent, session: Session | null) => void) | null,
  getSession: { calls: 0, answer: null as Session | null },
}));

vi.mock('../supabase-on-demand.ts', () => {
  const client = {
    auth: {
      onAuthStateChange: (listener: (event: AuthChangeEvent, session: Session | null) => void) => {
        auth.listener = listener;
      },
      getSession: () => {
        auth.getSession.calls += 1;
        return Promise.resolve({ data: { session: auth.getSession.answer }, error: null });
      },
    },
  } as unknown as SupabaseClient;
  const loaded: ((supabase: SupabaseClient) => void)[] = [];
  return {
    getSupabase: () => {
      for (const run of loaded.splice(0)) run(client);
      return Promise.resolve(client);
    },
    whenSupabaseLoads: (run: (supabase: SupabaseClient) => void) => void loaded.push(run),
  };
});

function sessionExpiringIn(seconds: number, token: string): Session {
  return {
    access_token: token,
    refresh_token: 'refresh',
    token_type: 'bearer',
    expires_in: seconds,
    expires_at: Math.floor(Date.now() / 1000) + seconds,
    user: { id: 'u1', aud: 'authenticated', app_metadata: {}, user_metadata: {}, created_at: '' },
  };
}

let currentAccessToken: () => Promise<string | null>;

beforeAll(async () => {
  // Nobody is stored as signed in, so the module loads the client at once.
  ({ currentAccessToken } = await import('./auth-session.ts'));
  await vi.waitFor(() => expect(auth.listener).not.toBeNull());
});

describe('the access token API calls carry, once supabase-js has loaded', () => {
  it("is the last auth event's, without asking auth-js, while it stays valid for minutes", async () => {
    auth.listener?.('SIGNED_IN', sessionExpiringIn(3600, 'fresh'));
    const before = auth.getSession.calls;
    expect(await currentAccessToken()).toBe('fresh');
    expect(await currentAccessToken()).toBe('fresh');
    expect(auth.getSession.calls).toBe(before);
  });

  it('follows a refresh that auth-js tells of', async () => {
    auth.listener?.('TOKEN_REFRESHED', sessionExpiringIn(3600, 'refreshed'));
    expect(await currentAccessToken()).toBe('refreshed');
  });

  it('comes from auth-js, which refreshes it first, when it is about to expire', async () => {
    auth.listener?.('TOKEN_REFRESHED', sessionExpiringIn(60, 'expiring'));
    auth.getSession.answer = sessionExpiringIn(3600, 'renewed');
    const before = auth.getSession.calls;
    expect(await currentAccessToken()).toBe('renewed');
    expect(auth.getSession.calls).toBe(before + 1);
  });

  it('is none after a sign-out (auth-js is asked, and has no session)', async () => {
    auth.listener?.('SIGNED_OUT', null);
    auth.getSession.answer = null;
    expect(await currentAccessToken()).toBeNull();
  });
});
