import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';
import { accountKeys } from './query-keys.ts';

interface RemoveFactorInput {
  factorId: string;
  /** A current code, needed when the session has not used the factor yet (Auth removes one only at aal2). */
  code?: string | undefined;
}

async function removeFactor({ factorId, code }: RemoveFactorInput): Promise<void> {
  if (code) {
    const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
    if (error) throw error;
  }
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
  // The stored session still lists the factor; a fresh one tells the guards that no code is owed.
  const { error: refreshError } = await supabase.auth.refreshSession();
  if (refreshError) throw refreshError;
}

export function useRemoveFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
  });
}
