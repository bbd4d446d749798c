/** SQL for the caller's own account. Runs as the caller, so RLS keeps every statement to their own rows. */
import type { Sql } from '../../_shared/db.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import { AppError } from '../../_shared/errors.ts';
import { raisedErrorCode, refusing, type Refusals } from '../../_shared/sql-errors.ts';

export interface ProfileRow extends Record<string, unknown> {
  display_name: string;
  avatar_path: string | null;
  time_zone: string | null;
  version: number;
  updated_at: Date;
}

export interface AccountRow extends Record<string, unknown> {
  email: string | null;
  created_at: Date;
}

export interface MfaFactorRow extends Record<string, unknown> {
  id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'phone' | 'webauthn';
  status: 'unverified' | 'verified';
  created_at: Date;
}

export async function selectOwnProfile(sql: Sql): Promise<ProfileRow | undefined> {
  const [row] = await sql.query<ProfileRow>(
    `select display_name, avatar_path, time_zone, version, updated_at
     from public.profiles where user_id = (select auth.uid())`,
  );
  return row;
}

export async function selectOwnAccount(sql: Sql): Promise<AccountRow | undefined> {
  const [row] = await sql.query<AccountRow>('select email, created_at from private.caller_account()');
  return row;
}

export async function selectOwnMfaFactors(sql: Sql): Promise<MfaFactorRow[]> {
  return sql.query<MfaFactorRow>(
    'select id, friendly_name, factor_type, status, created_at from private.caller_mfa_factors()',
  );
}

/** The profile's writable fields: each left out keeps its value. */
export interface ProfileChanges {
  display_name?: string | undefined;
  time_zone?: string | null | undefined;
}

/** Applies `changes` if the profile is at an expected version; whether it did. */
export async function updateOwnProfile(
  sql: Sql,
  changes: ProfileChanges,
  expected: ExpectedVersion,
): Promise<boolean> {
  const rows = await refusing(
    sql.query(
      `update public.profiles
       set display_name = coalesce($1, display_name),
         time_zone = case when $2 then $3 else time_zone end
       where user_id = (select auth.uid()) and ($4::integer[] is null or version = any($4::integer[]))
       returning version`,
      [changes.display_name ?? null, changes.time_zone !== undefined, changes.time_zone ?? null, expected],
    ),
    unknownTimeZone,
  );
  return rows.length > 0;
}

/** The database's own list of time zones backs up the schema's (Intl's) check. */
const unknownTimeZone: Refusals = (error) =>
  raisedErrorCode(error) === 'validation_failed'
    ? new AppError('validation_failed', undefined, {
        errors: [
          {
            path: 'body.time_zone',
            code: 'unknown_time_zone',
            message: 'must be an IANA time zone name, such as Europe/Paris',
          },
        ],
      })
    : undefined;
