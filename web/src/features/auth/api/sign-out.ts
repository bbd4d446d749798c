import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '../../../lib/supabase-on-demand.ts';

/** Signs out of this browser only; other devices stay signed in. */
async function signOut(): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signOut({ scope: 'local' });
  if (error) throw error;
}

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
