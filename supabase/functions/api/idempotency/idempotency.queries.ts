/**
 * SQL for Idempotency-Key records. A record is written as the caller, inside the request's own
 * transaction (see db.withCallerTransaction), so RLS keeps it to the caller's rows and it commits
 * exactly when the request's effect does. The key's claim, before the request runs, is the service's
 * (docs/decisions/0016).
 */
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { CredentialHolder } from '../../_shared/auth/credential-verifier.ts';
import type { Sql } from '../../_shared/db.ts';

/** Only successes are recorded (see the idempotency middleware). */
export interface StoredResponse {
  status: SuccessStatusCode;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecordRow extends Record<string, unknown> {
  request_hash: string;
  response: StoredResponse;
}

export interface NewIdempotencyRecord {
  principal: string;
  key: string;
  requestHash: string;
  response: StoredResponse;
  lifetimeHours: number;
}

/** Expired records swept along with each new one, at most. */
const SWEEP_BATCH_SIZE = 100;

/** A key's claim: whether it was taken, and the key's unexpired record if it has one. */
export interface IdempotencyClaim {
  claimed: boolean;
  record: IdempotencyRecordRow | undefined;
}

/**
 * Who claims a key: a user (`user:<id>`), or an API token, as its id (`api_token:<id>`, as principalKeyOf
 * names it) or its secret's hash, so that the claim need not wait to learn the id.
 */
export type Claimant = CredentialHolder;

interface ClaimRow extends Record<string, unknown> {
  claimed: boolean;
  request_hash: string | null;
  response: StoredResponse | null;
}

/**
 * Claims a key as the service, autocommitted, in one statement (private.claim_idempotency_key): the
 * key's unexpired record if it has one; else the claim, not taken while another request holds it. A
 * claim older than `staleAfterSeconds` belongs to a request that died, and is taken over. No claim
 * when no API token has the hash: authentication refuses the request.
 */
export async function claimIdempotencyKey(
  sql: Sql,
  claimant: Claimant,
  key: string,
  staleAfterSeconds: number,
): Promise<IdempotencyClaim | undefined> {
  const [row] =
    'apiTokenHashHex' in claimant
      ? await sql.query<ClaimRow>(
          `select claim.claimed, claim.request_hash, claim.response
           from public.api_tokens as token
           cross join lateral private.claim_idempotency_key(token.user_id, 'api_token:' || token.id::text, $2, $3) as claim
           where token.token_hash = decode($1, 'hex')`,
          [claimant.apiTokenHashHex, key, staleAfterSeconds],
        )
      : await sql.query<ClaimRow>(
          'select claimed, request_hash, response from private.claim_idempotency_key($1, $2, $3, $4)',
          [claimant.userId, claimant.principal, key, staleAfterSeconds],
        );
  if (!row) return undefined;
  const record =
    row.request_hash !== null && row.response !== null
      ? { request_hash: row.request_hash, response: row.response }
      : undefined;
  return { claimed: row.claimed, record };
}

/** Releases a key's claim, as the service: its request's answer was not recorded, so a retry runs again. */
export async function releaseIdempotencyClaim(sql: Sql, claimant: Claimant, key: string): Promise<void> {
  if ('apiTokenHashHex' in claimant) {
    await sql.query(
      `select private.release_idempotency_claim('api_token:' || token.id::text, $2)
       from public.api_tokens as token where token.token_hash = decode($1, 'hex')`,
      [claimant.apiTokenHashHex, key],
    );
    return;
  }
  await sql.query('select private.release_idempotency_claim($1, $2)', [claimant.principal, key]);
}

/** Records the answer to a key, and sweeps a batch of anyone's expired records on the way. */
export async function insertIdempotencyRecord(sql: Sql, record: NewIdempotencyRecord): Promise<void> {
  await sql.query(
    `with swept as (select private.delete_expired_idempotency_keys($6) as deleted)
     insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
     select $1, $2, $3, $4, now() + make_interval(hours => $5)
     from swept`,
    [
      record.principal,
      record.key,
      record.requestHash,
      JSON.stringify(record.response),
      record.lifetimeHours,
      SWEEP_BATCH_SIZE,
    ],
  );
}
