import { useMutation } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Asks Supabase Auth to mail a recovery link that opens /reset-password signed in. */
async function requestPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: new URL(paths.resetPassword, window.location.origin).href,
  });
  if (error) throw error;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
