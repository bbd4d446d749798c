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

/**
 * Takes the transaction-scoped lock of (principal, key), without waiting: false when another request
 * with this key holds it, i.e. is still running. Released at commit or rollback.
 */
export async function tryLockIdempotencyKey(sql: Sql, principal: string, key: string): Promise<boolean> {
  const [row] = await sql.query<{ locked: boolean }>(
    "select pg_try_advisory_xact_lock(hashtextextended('idempotency-key ' || $1 || ' ' || $2, 0)) as locked",
    [principal, key],
  );
  return row?.locked === true;
}

/** The unexpired record of (principal, key), if any. */
export async function selectIdempotencyRecord(
  sql: Sql,
  principal: string,
  key: string,
): Promise<IdempotencyRecordRow | undefined> {
  const [row] = await sql.query<IdempotencyRecordRow>(
    `select request_hash, response from public.idempotency_keys
     where principal = $1 and key = $2 and expires_at > now()`,
    [principal, key],
  );
  return row;
}

/**
 * The unexpired record of (principal, key), if any, deleting an expired one so the key can be recorded
 * anew. Only with the key's lock held, so that no one else is deleting or writing that row.
 */
export async function takeIdempotencyRecord(
  sql: Sql,
  principal: string,
  key: string,
): Promise<IdempotencyRecordRow | undefined> {
  const [row] = await sql.query<IdempotencyRecordRow>(
    `with expired as (
       delete from public.idempotency_keys
       where principal = $1 and key = $2 and expires_at <= now()
     )
     select request_hash, response from public.idempotency_keys
     where principal = $1 and key = $2 and expires_at > now()`,
    [principal, key],
  );
  return row;
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
