import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';
import { accountKeys } from './query-keys.ts';

interface ConfirmTotpInput {
  factorId: string;
  code: string;
}

/** Checks a first code from the new authenticator app: the factor is then verified and the session aal2. */
async function confirmTotp({ factorId, code }: ConfirmTotpInput): Promise<void> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
  });
}
