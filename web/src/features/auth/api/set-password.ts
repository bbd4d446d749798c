import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

/** Sets a new password for the signed-in user; Supabase Auth then ends their other sessions. */
async function setPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
