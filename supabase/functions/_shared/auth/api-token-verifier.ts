/**
 * Verifies personal API tokens (`tl_pat_…`): a well-formed secret whose SHA-256 names a token that is
 * neither revoked nor expired, of a user who is not banned. The caller is then that user, without a
 * session. A token is not a sign-in, so it has no assurance level of its own: it reports `aal2` when its
 * user has a verified MFA factor and `aal1` otherwise, which is what the workspace MFA rule asks of tokens
 * (docs/decisions/0007-api-tokens.md).
 */
import type { Database } from '../db.ts';
import type { Principal } from '../principal.ts';
import { hashApiToken, isWellFormedApiToken } from './api-token-secret.ts';
import { selectPresentedApiToken, type PresentedApiTokenRow } from './api-tokens.queries.ts';
import type { SendBesideCheck, CountedPrincipal, CredentialVerifier } from './credential-verifier.ts';
import { countApiTokenRequest } from './request-counts.queries.ts';
import { invalidCredentials } from './unauthenticated.ts';

export interface ApiTokenVerifierOptions {
  /** Where tokens are looked up, as the service (the caller is not known yet). */
  db: Database;
}

export function apiTokenVerifier({ db }: ApiTokenVerifierOptions): CredentialVerifier {
  const verifyAndCount = async (
    token: string,
    windowSeconds?: number,
    alongside?: SendBesideCheck,
  ): Promise<CountedPrincipal> => {
    if (!isWellFormedApiToken(token)) {
      throw invalidCredentials(
        'The API token is malformed: it should be "tl_pat_" and 43 letters and digits. Copy it again.',
      );
    }
    const tokenHash = await hashApiToken(token);
    // The count travels with the lookup, in the same round trip.
    const [found, count] = await db.serviceStatements((sql) =>
      Promise.all([
        selectPresentedApiToken(sql, tokenHash),
        windowSeconds === undefined ? undefined : countApiTokenRequest(sql, tokenHash, windowSeconds),
        alongside?.(sql, { apiTokenHashHex: tokenHash }),
      ]),
    );
    if (!found) {
      throw invalidCredentials('The API token is not recognised: it never existed or its user was deleted.');
    }
    return { principal: principalFrom(found), count };
  };
  return {
    verify: async (token) => (await verifyAndCount(token)).principal,
    verifyAndCount,
  };
}

function principalFrom(token: PresentedApiTokenRow): Principal {
  switch (token.status) {
    case 'revoked':
      throw invalidCredentials('The API token has been revoked. Create a new one.');
    case 'expired':
      throw invalidCredentials(
        `The API token expired at ${token.expires_at.toISOString()}. Create a new one.`,
      );
    case 'banned':
      throw invalidCredentials("The API token's user is banned.");
    case 'active':
      return {
        user_id: token.user_id,
        email: token.email,
        aal: token.has_verified_factor ? 'aal2' : 'aal1',
        session_id: null,
        api_token: { id: token.token_id, scope: token.scope },
      };
  }
}
