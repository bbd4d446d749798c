import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * The app's one Supabase client (lib/supabase-client.ts), loaded on first use: supabase-js is a quarter of
 * the app's JavaScript, and a signed-in screen can show before it has loaded (lib/auth/auth-session.ts
 * reads a stored session that is still valid without it). Code that is not on an auth screen (realtime,
 * uploads, sign-out) awaits this instead of importing the client, so that the client stays off the
 * first paint.
 */
export function getSupabase(): Promise<SupabaseClient> {
  loading ??= import('./supabase-client.ts').then(({ supabase }) => {
    loaded = supabase;
    for (const run of onFirstLoad) run(supabase);
    return supabase;
  });
  return loading;
}

let loading: Promise<SupabaseClient> | undefined;
let loaded: SupabaseClient | undefined;
const onFirstLoad: ((supabase: SupabaseClient) => void)[] = [];

/**
 * Runs `run` with the client as soon as `getSupabase()` first has it, before anyone awaiting it (at once
 * when it has loaded already).
 */
export function whenSupabaseLoads(run: (supabase: SupabaseClient) => void): void {
  if (loaded) run(loaded);
  else onFirstLoad.push(run);
}

/** The client once whoever needs it first has loaded it, without hurrying it onto the first paint. */
export function supabaseOnceLoaded(): Promise<SupabaseClient> {
  return new Promise((resolve) => whenSupabaseLoads(resolve));
}

export type { AuthChangeEvent, Factor, Session, User } from '@supabase/supabase-js';
