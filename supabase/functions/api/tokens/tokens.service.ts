/**
 * The caller's personal API tokens: create (the secret is answered once, only its hash is kept), list,
 * read and revoke. The rules: at most API_TOKENS_PER_USER active tokens, at most
 * SENSITIVE_CREATIONS_PER_HOUR creations an hour, and an aal2 session to create one when the caller has a
 * verified MFA factor. API tokens themselves never get here: the tokenAccess middleware refuses them.
 */
import type { ApiToken, CreateApiToken, NewApiToken } from '../../_shared/api-types.ts';
import {
  displayPrefixOf,
  generateApiTokenSecret,
  hashApiToken,
} from '../../_shared/auth/api-token-secret.ts';
import { CREATION_WINDOW_SECONDS, requireCreationBudget } from '../../_shared/creation-budget.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { API_TOKENS_PER_USER } from '../../_shared/limits.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireExpectedVersion, type ExpectedVersion } from '../../_shared/versions.ts';
import {
  countOwnActiveTokens,
  insertOwnToken,
  lockOwnTokenCreation,
  revokeOwnToken,
  selectCallerHasVerifiedFactor,
  selectOwnRecentCreations,
  selectOwnToken,
  selectOwnTokens,
  type ApiTokenRow,
} from './tokens.queries.ts';

/** How long a revoked or expired token stays in the list, so people see what stopped working. */
export const ENDED_TOKENS_LISTED_FOR_DAYS = 30;

export function createApiToken(
  db: Database,
  principal: Principal,
  request: CreateApiToken,
): Promise<NewApiToken> {
  return db.asCaller(principal, async (sql) => {
    // One round trip: statements run in order, so the counts behind the lock see what it waited for.
    // They are then judged in the old order (403 MFA, 409 limit, 429 budget); the insert goes with its
    // COMMIT (0016).
    const [verifiedFactor, , active, recent] = await Promise.all([
      principal.aal === 'aal2' ? Promise.resolve(false) : selectCallerHasVerifiedFactor(sql),
      lockOwnTokenCreation(sql),
      countOwnActiveTokens(sql),
      selectOwnRecentCreations(sql, CREATION_WINDOW_SECONDS),
    ]);
    requireSecondFactorIfEnrolled(verifiedFactor);
    requireRoomForAnotherToken(active);
    requireCreationBudget(recent, 'API tokens');
    const secret = generateApiTokenSecret();
    const row = await insertOwnToken(asLastStatement(sql), {
      name: request.name,
      prefix: displayPrefixOf(secret),
      tokenHashHex: await hashApiToken(secret),
      scope: request.scope,
      lifetimeDays: request.expires_in_days,
    });
    return { ...toApiToken(row), token: secret };
  });
}

export function listApiTokens(
  db: Database,
  principal: Principal,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<ApiToken>> {
  return db.asCaller(principal, async (sql) =>
    pageOf(await selectOwnTokens(asLastStatement(sql), ENDED_TOKENS_LISTED_FOR_DAYS, page), page, toApiToken),
  );
}

export function getApiToken(db: Database, principal: Principal, id: string): Promise<ApiToken> {
  return db.asCaller(principal, async (sql) =>
    toApiToken(found(await selectOwnToken(asLastStatement(sql), id))),
  );
}

/**
 * Revoking is idempotent: a token revoked before is answered as it is, unless If-Match names another
 * version than the one it is at.
 */
export function revokeApiToken(
  db: Database,
  principal: Principal,
  id: string,
  expected: ExpectedVersion,
): Promise<ApiToken> {
  return db.asCaller(principal, async (sql) => {
    const revoked = await revokeOwnToken(sql, id, expected);
    if (revoked) return toApiToken(revoked);
    const current = found(await selectOwnToken(sql, id));
    requireExpectedVersion(current.version, expected);
    return toApiToken(current);
  });
}

/** `verifiedFactor`: whether an aal1 caller has a verified factor (false for an aal2 session). */
function requireSecondFactorIfEnrolled(verifiedFactor: boolean): void {
  if (!verifiedFactor) return;
  throw new AppError(
    'mfa_required',
    'Your account has two-factor authentication: verify your second factor, then create the token.',
  );
}

function requireRoomForAnotherToken(active: number): void {
  if (active < API_TOKENS_PER_USER) return;
  throw new AppError(
    'limit_reached',
    `You already have ${API_TOKENS_PER_USER} active API tokens, the limit (api_tokens_per_user). Revoke one first.`,
  );
}

function found(row: ApiTokenRow | undefined): ApiTokenRow {
  if (!row) throw new AppError('not_found', 'You have no API token with this id.');
  return row;
}

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    object: 'api_token',
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    status: row.status,
    expires_at: row.expires_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
