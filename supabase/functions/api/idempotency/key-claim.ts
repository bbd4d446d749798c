/**
 * An Idempotency-Key's claim, sent by authentication in the round trip that checks the credential
 * (docs/decisions/0016), so that the request's work need not wait for it. The idempotency middleware
 * takes it over; a claim no one took over (the request was refused before: 401, 429, 403, a bad body)
 * is released once the answer is made, so that the key is free for the request's retry.
 */
import type { StatementBesideCheck, CredentialHolder } from '../../_shared/auth/credential-verifier.ts';
import type { Database } from '../../_shared/db.ts';
import { IDEMPOTENCY_CLAIM_STALE_SECONDS, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../_shared/limits.ts';
import {
  claimIdempotencyKey,
  releaseIdempotencyClaim,
  type IdempotencyClaim,
} from './idempotency.queries.ts';

export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH']);

/** The claim's statement goes with the credential's check; undoing it releases the claim if it was taken. */
export interface KeyClaim extends StatementBesideCheck {
  key: string;
  /** The claim's outcome, once its statement has run; undefined when no API token had the hash. */
  outcome(): IdempotencyClaim | undefined;
  /** The idempotency middleware answers for the claim from now on (it releases it when it must). */
  takeOver(): IdempotencyClaim | undefined;
}

/** Whether the header names a key the idempotency middleware will use (it answers 400 otherwise). */
export const isUsableKey = (key: string): boolean =>
  key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH;

/** The claim a request with a usable Idempotency-Key on POST or PATCH makes; none for the others. */
export function keyClaimOf(db: Database, method: string, header: string | undefined): KeyClaim | undefined {
  if (header === undefined || !IDEMPOTENT_METHODS.has(method) || !isUsableKey(header)) return undefined;
  const key = header;
  let holder: CredentialHolder | undefined;
  let outcome: IdempotencyClaim | undefined;
  let takenOver = false;
  return {
    key,
    statement: async (sql, by) => {
      holder = by;
      outcome = await claimIdempotencyKey(sql, by, key, IDEMPOTENCY_CLAIM_STALE_SECONDS);
    },
    outcome: () => outcome,
    takeOver: () => {
      takenOver = true;
      return outcome;
    },
    undoUnlessTakenOver: async () => {
      const claimant = holder;
      if (takenOver || !outcome?.claimed || claimant === undefined) return;
      // Awaited: the refused request's retry must find the key free. If even this fails, the claim goes
      // stale (IDEMPOTENCY_CLAIM_STALE_SECONDS) and frees the key then.
      await db.serviceStatements((sql) => releaseIdempotencyClaim(sql, claimant, key)).catch(() => undefined);
    },
  };
}
