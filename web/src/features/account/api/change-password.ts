import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

/** Sets a new password; Supabase Auth keeps this session and ends the user's others. */
async function changePassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
