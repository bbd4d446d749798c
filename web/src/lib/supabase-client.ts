import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env.ts';
import { AUTH_STORAGE_KEY } from './auth/stored-session.ts';

/**
 * The app's one Supabase client. The browser uses it for the auth session (and for realtime and uploads
 * to signed URLs); every read and write goes through the typed API client. supabase-js is a large part of
 * the app's code, so screens that need no auth call reach this module only through `getSupabase()`
 * (lib/supabase-on-demand.ts), which loads it on demand; the auth screens import it directly.
 *
 * `flowType: 'implicit'`: a recovery link then carries its session in the URL fragment, so it works in
 * whichever browser opens the mail. PKCE would tie the link to the browser that asked for it (the code
 * verifier lives in that browser's storage) and fail on the phone where people often read their mail.
 * The fragment never reaches a server, and auth-js removes it from the address as soon as it has read it.
 */
export const supabase = createClient(env.supabaseUrl, env.supabaseAnonKey, {
  auth: {
    flowType: 'implicit',
    detectSessionInUrl: true,
    persistSession: true,
    autoRefreshToken: true,
    storageKey: AUTH_STORAGE_KEY,
  },
});

export type { AuthChangeEvent, Factor, Session, User } from '@supabase/supabase-js';
