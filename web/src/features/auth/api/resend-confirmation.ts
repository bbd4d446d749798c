import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

export interface ResendConfirmationInput {
  email: string;
  /** The same path of this app as the sign-up's, so the new link leads back to the same place. */
  returnTo?: string | undefined;
}

/** Supabase Auth sends the sign-up confirmation mail again (at most once a minute on hosted projects). */
async function resendConfirmation({ email, returnTo }: ResendConfirmationInput): Promise<void> {
  const { error } = await supabase.auth.resend({
    type: 'signup',
    email,
    options: { emailRedirectTo: `${window.location.origin}${returnTo ?? ''}` },
  });
  if (error) throw error;
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
