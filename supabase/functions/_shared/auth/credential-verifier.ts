/**
 * How the API learns who is calling: a bearer credential goes to the verifier for its kind, chosen by the
 * token's prefix: Tasklane API tokens (`tl_pat_…`) to the API-token verifier, anything else to the
 * verifier of Supabase Auth access tokens (JWTs).
 */
import type { Sql } from '../db.ts';
import type { Principal } from '../principal.ts';
import type { RequestCountRow } from './request-counts.queries.ts';

/** A verified caller, and the request counted against their rate-limit bucket when it was asked for. */
export interface CountedPrincipal {
  principal: Principal;
  count?: RequestCountRow;
}

/**
 * Whom a credential names, before it is judged: a user, as their access token says (principalKeyOf's
 * `user:<id>`), or an API token, by its secret's hash (its id is found in SQL, `api_token:<id>`).
 */
export type CredentialHolder = { userId: string; principal: string } | { apiTokenHashHex: string };

/**
 * A service statement for the credential's holder, sent in the round trip that checks the credential
 * (an Idempotency-Key's claim). It runs whatever the credential's verdict; its sender undoes it if the
 * request is refused.
 */
export type SendBesideCheck = (sql: Sql, holder: CredentialHolder) => Promise<unknown>;

/** What a request sends alongside the credential's check, and undoes unless its route takes it over. */
export interface StatementBesideCheck {
  statement: SendBesideCheck;
  /** Undoes the statement's effect, unless the route took it over; never throws. */
  undoUnlessTakenOver(): Promise<void>;
}

export interface CredentialVerifier {
  /** Who the credential belongs to; rejects with `401 unauthenticated` (or `503 unavailable`). */
  verify(credential: string): Promise<Principal>;
  /**
   * The same, and counts the request against the caller's rate-limit bucket (principalKeyOf) in the
   * same round trip as the check of the credential (docs/decisions/0016).
   */
  verifyAndCount?(
    credential: string,
    windowSeconds: number,
    alongside?: SendBesideCheck,
  ): Promise<CountedPrincipal>;
  /**
   * verifyAndCount for a request that changes nothing, in the round trip of its first transaction
   * (Database.withServiceWorkAhead): `run` learns the principal at once and the verdict when it comes, and must
   * not answer before it. For a credential whose check cannot go ahead (an API token's principal comes
   * from its check), `checkFirst` runs instead.
   */
  verifyAhead?<T>(
    credential: string,
    windowSeconds: number,
    checkFirst: () => Promise<T>,
    run: (principal: Principal, verdict: Promise<CountedPrincipal>) => Promise<T>,
  ): Promise<T>;
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
  const verifierOf = (credential: string) =>
    credential.startsWith(API_TOKEN_PREFIX) ? apiTokens : accessTokens;
  return {
    verify: (credential) => verifierOf(credential).verify(credential),
    verifyAndCount: async (credential, windowSeconds, alongside) => {
      const verifier = verifierOf(credential);
      if (verifier.verifyAndCount) return verifier.verifyAndCount(credential, windowSeconds, alongside);
      return { principal: await verifier.verify(credential) };
    },
    verifyAhead: (credential, windowSeconds, checkFirst, run) => {
      const verifier = verifierOf(credential);
      return verifier.verifyAhead
        ? verifier.verifyAhead(credential, windowSeconds, checkFirst, run)
        : checkFirst();
    },
  };
}
