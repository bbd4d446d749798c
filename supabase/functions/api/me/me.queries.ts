/** SQL for the caller's own account. Runs as the caller, so RLS keeps every statement to their own rows. */
import type { Sql } from '../../_shared/db.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';

export interface ProfileRow extends Record<string, unknown> {
  display_name: string;
  avatar_path: string | null;
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
    `select display_name, avatar_path, version, updated_at
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

/** Sets the display name if the profile is at an expected version; whether it did. */
export async function updateOwnDisplayName(
  sql: Sql,
  displayName: string,
  expected: ExpectedVersion,
): Promise<boolean> {
  const rows = await sql.query(
    `update public.profiles set display_name = $1
     where user_id = (select auth.uid()) and ($2::integer[] is null or version = any($2::integer[]))
     returning version`,
    [displayName, expected],
  );
  return rows.length > 0;
}
