/**
 * How the API learns who is calling: a bearer credential goes to the verifier for its kind, chosen by the
 * token's prefix: Tasklane API tokens (`tl_pat_…`) to the API-token verifier, anything else to the
 * verifier of Supabase Auth access tokens (JWTs).
 */
import type { Principal } from '../principal.ts';

export interface CredentialVerifier {
  /** Who the credential belongs to; rejects with `401 unauthenticated` (or `503 unavailable`). */
  verify(credential: string): Promise<Principal>;
}

export const API_TOKEN_PREFIX = 'tl_pat_';

export interface CredentialVerifiers {
  accessTokens: CredentialVerifier;
  apiTokens: CredentialVerifier;
}

/** One verifier for every bearer credential, dispatching on the token's prefix. */
export function bearerCredentialVerifier({
  accessTokens,
  apiTokens,
}: CredentialVerifiers): CredentialVerifier {
  return {
    verify: (credential) =>
      credential.startsWith(API_TOKEN_PREFIX)
        ? apiTokens.verify(credential)
        : accessTokens.verify(credential),
  };
}
