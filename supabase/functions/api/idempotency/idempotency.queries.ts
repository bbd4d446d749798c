/**
 * SQL for Idempotency-Key records. Runs as the caller, inside the request's own transaction (see
 * db.withCallerTransaction), so RLS keeps every statement to the caller's rows and a record commits
 * exactly when the request's effect does.
 */
import type { SuccessStatusCode } from 'hono/utils/http-status';
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

/** A key's claim: whether its lock was taken, and its unexpired record if it has one. */
export interface IdempotencyClaim {
  locked: boolean;
  record: IdempotencyRecordRow | undefined;
}

/**
 * Claims (principal, key) in one statement: takes its transaction-scoped lock without waiting (not taken
 * when another request with this key holds it, i.e. is still running; released at commit or rollback),
 * and reads its unexpired record. Only with the lock taken does it delete an expired record, so that
 * the key can be recorded anew: then no one else is deleting or writing that row.
 */
export async function claimIdempotencyKey(
  sql: Sql,
  principal: string,
  key: string,
): Promise<IdempotencyClaim> {
  const [row] = await sql.query<{ locked: boolean } & Partial<IdempotencyRecordRow>>(
    `with lock as materialized (
       select pg_try_advisory_xact_lock(hashtextextended('idempotency-key ' || $1 || ' ' || $2, 0)) as locked
     ),
     expired as (
       delete from public.idempotency_keys
       where principal = $1 and key = $2 and expires_at <= now() and (select locked from lock)
     )
     select lock.locked, r.request_hash, r.response
     from lock
     left join public.idempotency_keys r on r.principal = $1 and r.key = $2 and r.expires_at > now()`,
    [principal, key],
  );
  const locked = row?.locked === true;
  const record =
    row?.request_hash && row.response
      ? { request_hash: row.request_hash, response: row.response }
      : undefined;
  return { locked, record };
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
