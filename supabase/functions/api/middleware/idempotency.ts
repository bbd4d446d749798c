/**
 * Idempotency-Key on POST and PATCH (docs/product.md#api-conventions, docs/decisions/0006). An authenticated
 * request that sends a key runs in one caller transaction, which the route's units of work join
 * (db.withCallerTransaction):
 *
 * - The key is claimed by the service, in the round trip that checks the credential (idempotency/
 *   key-claim.ts, docs/decisions/0016), or here when authentication did not; claimed by a request still
 *   running → `409 idempotency_key_in_use`.
 * - A record of the key → the same request is answered the stored answer with `Idempotent-Replayed: true`;
 *   another request (method, path, query or body differ) → `422 idempotency_key_reused`.
 * - A request whose answer is not recorded releases the claim, so that its retry runs again.
 * - Otherwise the request runs. A 2xx answer is recorded in the same transaction, so the record commits
 *   exactly when the effect does; any other answer rolls everything back and records nothing, so a retry
 *   runs again, which is safe because nothing happened. A `Cache-Control: no-store` answer carries a
 *   secret shown once and is never recorded.
 *
 * What must wait until the effect is committed (sending its mail) is handed to `afterCommit`, which runs it
 * once this transaction committed, and never if it rolled back.
 *
 * Keys belong to the principal: a user's sign-in sessions share theirs, each API token has its own.
 * Other methods, public routes and requests without the header pass through untouched.
 */
import type { Context, Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  IDEMPOTENCY_CLAIM_STALE_SECONDS,
  IDEMPOTENCY_KEY_LIFETIME_HOURS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
} from '../../_shared/limits.ts';
import { principalKeyOf } from '../../_shared/principal.ts';
import type { AppEnv, AuthenticatedEnv } from '../app-env.ts';
import {
  claimIdempotencyKey,
  insertIdempotencyRecord,
  releaseIdempotencyClaim,
  type IdempotencyClaim,
  type IdempotencyRecordRow,
  type StoredResponse,
} from '../idempotency/idempotency.queries.ts';
import { IDEMPOTENT_METHODS, isUsableKey } from '../idempotency/key-claim.ts';
import { requestFingerprint } from '../idempotency/request-fingerprint.ts';

export { IDEMPOTENT_METHODS };
/** The headers of an answer that belong to it, as opposed to this delivery of it (request id, limits). */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
/** The answers that are recorded: successes. Anything else rolls back and is not. */
const SUCCESS_STATUSES: readonly number[] = [
  200, 201, 202, 203, 204, 205, 206, 207, 208, 226,
] satisfies readonly SuccessStatusCode[];

interface KeyedRequest {
  principal: string;
  userId: string;
  key: string;
  fingerprint: string;
}

/** Thrown to roll the request's transaction back when its answer is not a success. */
class NotRecorded extends Error {}

export const idempotency = (db: Database, lifetimeHours = IDEMPOTENCY_KEY_LIFETIME_HOURS) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.var.principal;
    const header = c.req.header('idempotency-key');
    if (header === undefined || !principal || !IDEMPOTENT_METHODS.has(c.req.method)) return next();
    const request = {
      principal: principalKeyOf(principal),
      userId: principal.user_id,
      key: validKey(header),
      fingerprint: await fingerprintOf(c),
    };
    const claim = c.var.idempotencyClaim?.takeOver() ?? (await claimHere(db, request));
    if (claim.record) return replay(c, claim.record, request);
    if (!claim.claimed) throw new AppError('idempotency_key_in_use');
    const committed: (() => Promise<void>)[] = [];
    c.set('afterCommit', committed);
    let recorded: boolean;
    try {
      recorded = await db.withCallerTransaction(principal, (sql) =>
        runAndRecord(c, next, sql, request, lifetimeHours),
      );
    } catch (error) {
      await release(db, request);
      // The answer (an error) is already on `c.res`; only the transaction had to go.
      if (error instanceof NotRecorded) return undefined;
      throw error;
    }
    if (!recorded) await release(db, request);
    for (const work of committed) await work();
    return undefined;
  });

/** The key's claim, when authentication did not send it with the credential's check. */
async function claimHere(db: Database, request: KeyedRequest): Promise<IdempotencyClaim> {
  const holder = { userId: request.userId, principal: request.principal };
  const claim = await db.serviceStatements((sql) =>
    claimIdempotencyKey(sql, holder, request.key, IDEMPOTENCY_CLAIM_STALE_SECONDS),
  );
  if (!claim) throw new Error('private.claim_idempotency_key answered no row');
  return claim;
}

/** Frees the key for a retry; if even this fails, the claim goes stale and frees it then. */
const release = (db: Database, request: KeyedRequest): Promise<void> =>
  db
    .serviceStatements((sql) =>
      releaseIdempotencyClaim(sql, { userId: request.userId, principal: request.principal }, request.key),
    )
    .catch(() => undefined);

/**
 * Runs `work` once what the request wrote is committed: at once, since each unit of work commits on its
 * own, or, inside an Idempotency-Key's transaction, after that commits (and never when it rolls back).
 */
export async function afterCommit(c: Context<AuthenticatedEnv>, work: () => Promise<void>): Promise<void> {
  const queued = c.var.afterCommit;
  if (queued) queued.push(work);
  else await work();
}

/** Runs the request (the key claimed) and records its answer if it is a success; whether it did. */
async function runAndRecord(
  c: Context<AppEnv>,
  next: Next,
  sql: Sql,
  request: KeyedRequest,
  lifetimeHours: number,
): Promise<boolean> {
  await next();
  const status = c.res.status;
  if (c.error !== undefined || !isSuccess(status)) throw new NotRecorded();
  // An answer that may not be stored (a secret shown once, such as a new API token) is not recorded: the
  // secret must never rest in the database. Its effect commits; a retry with the key runs again.
  if (isNoStore(c.res)) return false;
  // The transaction's last statement: its COMMIT goes with it (docs/decisions/0016).
  await insertIdempotencyRecord(asLastStatement(sql), {
    principal: request.principal,
    key: request.key,
    requestHash: request.fingerprint,
    response: await storedResponseOf(c.res, status),
    lifetimeHours,
  });
  return true;
}

function isNoStore(response: Response): boolean {
  return /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('cache-control') ?? '');
}

function validKey(header: string): string {
  if (isUsableKey(header)) return header;
  const tooLong = header.length > IDEMPOTENCY_KEY_MAX_LENGTH;
  throw new AppError('bad_request', 'The Idempotency-Key header is not a usable key.', {
    errors: [
      {
        path: 'header.idempotency-key',
        code: tooLong ? 'too_long' : 'too_short',
        message: tooLong
          ? `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`
          : 'must not be empty; send a fresh random value, such as a UUID, for each new request',
      },
    ],
  });
}

async function fingerprintOf(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const text = await c.req.text();
  return requestFingerprint({
    method: c.req.method,
    path: url.pathname,
    query: [...url.searchParams],
    // The body guard has checked that a non-empty body is JSON, or a file (taken as its text).
    body: text === '' ? null : isFileBody(c) ? text : await c.req.json<unknown>(),
  });
}

const isFileBody = (c: Context<AppEnv>): boolean =>
  c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data') ?? false;

function replay(c: Context<AppEnv>, stored: IdempotencyRecordRow, request: KeyedRequest): Response {
  if (stored.request_hash !== request.fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was first used for a different request (method, path, query or body). Use a new key for a new request.',
    );
  }
  const { status, headers, body } = stored.response;
  // A 201 has a body; a 204 must not have even an empty one.
  return c.newResponse(body === '' ? null : body, {
    status,
    headers: { ...headers, 'Idempotent-Replayed': 'true' },
  });
}

function isSuccess(status: number): status is SuccessStatusCode {
  return SUCCESS_STATUSES.includes(status);
}

async function storedResponseOf(response: Response, status: SuccessStatusCode): Promise<StoredResponse> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status, headers, body: await response.clone().text() };
}
