import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

export interface SignInLinkInput {
  email: string;
  /** A path of this app where the link brings the person back signed in (an invitation), else home. */
  returnTo: string;
}

/**
 * Mails a one-time sign-in link (supabase-js `signInWithOtp`). Only to an existing account: signing up
 * asks for a password and a name, so this never creates one (`shouldCreateUser: false`).
 */
async function sendSignInLink({ email, returnTo }: SignInLinkInput): Promise<void> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { shouldCreateUser: false, emailRedirectTo: `${window.location.origin}${returnTo}` },
  });
  if (error) throw error;
}

export function useSendSignInLink() {
  return useMutation({ mutationFn: sendSignInLink });
}
