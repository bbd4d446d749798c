import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

/** Ends every session of the user, on every device, this one included. */
async function signOutEverywhere(): Promise<void> {
  const { error } = await supabase.auth.signOut({ scope: 'global' });
  if (error) throw error;
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: signOutEverywhere });
}
