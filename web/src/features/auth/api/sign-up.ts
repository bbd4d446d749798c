import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

export interface SignUpInput {
  email: string;
  password: string;
  display_name?: string | undefined;
  /** A path of this app where the confirmation link brings the person back (an invitation), else home. */
  returnTo?: string | undefined;
}

export interface SignUpResult {
  /** False when the project confirms e-mail addresses first: the person must open the mail we sent. */
  signedIn: boolean;
  /** The address signed up, as the confirmation mail was sent to it. */
  email: string;
}

/** Supabase Auth sign-up; the display name goes into `user_metadata`, where the profile trigger reads it. */
async function signUp({ email, password, display_name, returnTo }: SignUpInput): Promise<SignUpResult> {
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: display_name ? { display_name } : {},
      // Where a project that confirms addresses sends the person after they open the mail.
      emailRedirectTo: `${window.location.origin}${returnTo ?? ''}`,
    },
  });
  if (error) throw error;
  return { signedIn: data.session !== null, email: data.user?.email ?? email };
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
