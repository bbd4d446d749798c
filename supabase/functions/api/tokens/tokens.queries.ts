/**
 * SQL for the caller's own API tokens. Runs as the caller, so RLS keeps every statement to their own rows;
 * the hashes are beyond the caller's column grants, so no statement here can read one.
 */
import type { ApiTokenScope } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';

export interface ApiTokenRow extends Record<string, unknown> {
  id: string;
  name: string;
  prefix: string;
  scope: ApiTokenScope;
  status: 'active' | 'revoked' | 'expired';
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface ListedApiTokenRow extends ApiTokenRow {
  sort_key: CreatedAtIdKey;
}

export interface NewApiTokenRow {
  name: string;
  prefix: string;
  tokenHashHex: string;
  scope: ApiTokenScope;
  lifetimeDays: number;
}

export interface RecentCreations extends Record<string, unknown> {
  count: number;
  /** Seconds until the oldest creation in the window leaves it; null when there is none. */
  retry_after_seconds: number | null;
}

const TOKEN_COLUMNS = `id, name, prefix, scope,
  case
    when revoked_at is not null then 'revoked'
    when expires_at <= now() then 'expired'
    else 'active'
  end as status,
  expires_at, last_used_at, revoked_at, version, created_at, updated_at`;

/** Holds until the transaction ends, so that one user's token creations run one at a time. */
export async function lockOwnTokenCreation(sql: Sql): Promise<void> {
  await sql.query(
    `select pg_advisory_xact_lock(hashtextextended('create_api_token:' || (select auth.uid())::text, 0))`,
  );
}

export async function selectCallerHasVerifiedFactor(sql: Sql): Promise<boolean> {
  const [row] = await sql.query<{ verified: boolean }>(
    'select private.caller_has_verified_factor() as verified',
  );
  return row?.verified === true;
}

export async function countOwnActiveTokens(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ count: number }>(
    `select count(*)::integer as count from public.api_tokens
     where user_id = (select auth.uid()) and revoked_at is null and expires_at > now()`,
  );
  return row?.count ?? 0;
}

/** The caller's token creations within the last `windowSeconds`, revoked tokens included. */
export async function selectOwnRecentCreations(sql: Sql, windowSeconds: number): Promise<RecentCreations> {
  const [row] = await sql.query<RecentCreations>(
    `select count(*)::integer as count,
       ceil(extract(epoch from min(created_at) + make_interval(secs => $1) - now()))::integer
         as retry_after_seconds
     from public.api_tokens
     where user_id = (select auth.uid()) and created_at > now() - make_interval(secs => $1)`,
    [windowSeconds],
  );
  return row ?? { count: 0, retry_after_seconds: null };
}

export async function insertOwnToken(sql: Sql, token: NewApiTokenRow): Promise<ApiTokenRow> {
  const [row] = await sql.query<ApiTokenRow>(
    `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
     values ((select auth.uid()), $1, $2, decode($3, 'hex'), $4, now() + make_interval(days => $5))
     returning ${TOKEN_COLUMNS}`,
    [token.name, token.prefix, token.tokenHashHex, token.scope, token.lifetimeDays],
  );
  if (!row) throw new Error('insert into api_tokens returned no row');
  return row;
}

/**
 * A page of the caller's active tokens and those that ended (revoked or expired) within the last
 * `endedWithinDays`, newest first: the page after `cursor` in that order.
 */
export async function selectOwnTokens(
  sql: Sql,
  endedWithinDays: number,
  page: PageRequest<CreatedAtIdKey>,
): Promise<ListedApiTokenRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<ListedApiTokenRow>(
    `select ${TOKEN_COLUMNS}, json_build_array(created_at, id) as sort_key from public.api_tokens
     where user_id = (select auth.uid())
       and least(coalesce(revoked_at, 'infinity'), expires_at) > now() - make_interval(days => $1)
       and ($2::timestamptz is null or (created_at, id) < ($2::timestamptz, $3::uuid))
     order by created_at desc, id desc
     limit $4`,
    [endedWithinDays, createdAt, id, rowsToFetch(page)],
  );
}

export async function selectOwnToken(sql: Sql, id: string): Promise<ApiTokenRow | undefined> {
  const [row] = await sql.query<ApiTokenRow>(
    `select ${TOKEN_COLUMNS} from public.api_tokens where id = $1 and user_id = (select auth.uid())`,
    [id],
  );
  return row;
}

/**
 * Revokes the token unless it already is, if it is at an expected version; undefined when the caller has
 * no such active token at that version.
 */
export async function revokeOwnToken(
  sql: Sql,
  id: string,
  expected: ExpectedVersion,
): Promise<ApiTokenRow | undefined> {
  const [row] = await sql.query<ApiTokenRow>(
    `update public.api_tokens set revoked_at = now()
     where id = $1 and user_id = (select auth.uid()) and revoked_at is null
       and ($2::integer[] is null or version = any($2::integer[]))
     returning ${TOKEN_COLUMNS}`,
    [id, expected],
  );
  return row;
}
