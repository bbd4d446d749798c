/**
 * How the API learns who is calling: a bearer credential goes to the verifier for its kind, chosen by the
 * token's prefix. Supabase Auth access tokens (JWTs) are verified today; Tasklane API tokens (`tl_pat_…`)
 * get their own verifier with the API tokens feature and plug in here.
 */
import type { Principal } from '../principal.ts';
import { invalidCredentials } from './unauthenticated.ts';

export interface CredentialVerifier {
  /** Who the credential belongs to; rejects with `401 unauthenticated` (or `503 unavailable`). */
  verify(credential: string): Promise<Principal>;
}

export const API_TOKEN_PREFIX = 'tl_pat_';

export interface CredentialVerifiers {
  accessTokens: CredentialVerifier;
  /** Not built yet; until it is, an API token is refused with a clear reason. */
  apiTokens?: CredentialVerifier;
}

/** One verifier for every bearer credential, dispatching on the token's prefix. */
export function bearerCredentialVerifier({
  accessTokens,
  apiTokens,
}: CredentialVerifiers): CredentialVerifier {
  return {
    verify: (credential) => {
      if (!credential.startsWith(API_TOKEN_PREFIX)) return accessTokens.verify(credential);
      if (apiTokens) return apiTokens.verify(credential);
      return Promise.reject(invalidCredentials('API tokens are not accepted yet.'));
    },
  };
}
