import type { SupabaseClient } from '@supabase/supabase-js';
import { supabaseOnceLoaded } from '../supabase-on-demand.ts';

/**
 * The Supabase client realtime uses, once the auth session has loaded it (lib/auth/auth-session.ts does so
 * after the first paint): joining a second later costs nothing, since the join catches up from the feed.
 */
export function loadRealtimeClient(): Promise<SupabaseClient> {
  return supabaseOnceLoaded();
}

export type { RealtimeChannel } from '@supabase/supabase-js';
