import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

/** Raises the current session to aal2 with a code from the user's verified authenticator app. */
async function verifyTotp(code: string): Promise<void> {
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  // `totp` lists verified factors only; people enroll one authenticator app.
  const factor = factors.totp[0];
  if (!factor) throw new Error('This account has no verified authenticator app.');
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (error) throw error;
}

export function useVerifyTotp() {
  return useMutation({ mutationFn: verifyTotp });
}
