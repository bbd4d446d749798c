import { useMutation } from '@tanstack/react-query';
import { sessionAssurance } from '../../../lib/auth/session-assurance.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignInResult {
  /** The account has a verified authenticator: the code step comes next. */
  needsSecondFactor: boolean;
}

async function signIn(input: SignInInput): Promise<SignInResult> {
  const { data, error } = await supabase.auth.signInWithPassword(input);
  if (error) throw error;
  return { needsSecondFactor: sessionAssurance(data.session).needsSecondFactor };
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
