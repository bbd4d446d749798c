import type { SupabaseClient } from '@supabase/supabase-js';
import { supabase } from '../supabase.ts';

/**
 * The Supabase client realtime uses, as a promise: the one place to change should supabase-js come to
 * load lazily (it is large, and the board's first paint does not need the socket).
 */
export function loadRealtimeClient(): Promise<SupabaseClient> {
  return Promise.resolve(supabase);
}

export type { RealtimeChannel } from '@supabase/supabase-js';
