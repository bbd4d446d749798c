import type { Db } from '../db.ts';
import { findFactors, type FactorRow } from './factors.queries.ts';
import { findIdentities, type IdentityRow, type UserRow } from './users.queries.ts';

const OPTIONAL_TIMESTAMPS = [
  'email_confirmed_at',
  'phone_confirmed_at',
  'confirmed_at',
  'confirmation_sent_at',
  'recovery_sent_at',
  'email_change_sent_at',
  'invited_at',
  'last_sign_in_at',
  'banned_until',
  'deleted_at',
] as const;

/** The User object of `user` with its identities and MFA factors read from the database. */
export async function loadUserJson(db: Db, user: UserRow): Promise<Record<string, unknown>> {
  return userJson(user, await findIdentities(db, user.id), await findFactors(db, user.id));
}

/** The User object of GoTrue's API: null timestamps are omitted, `factors` is absent without factors. */
export function userJson(
  user: UserRow,
  identities: IdentityRow[],
  factors: FactorRow[] = [],
): Record<string, unknown> {
  const timestamps = Object.fromEntries(
    OPTIONAL_TIMESTAMPS.flatMap((key) => (user[key] ? [[key, user[key].toISOString()]] : [])),
  );
  return {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    ...timestamps,
    ...(user.email_change ? { new_email: user.email_change } : {}),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
    is_anonymous: user.is_anonymous,
  };
}

/** GoTrue's Factor: `friendly_name` is omitted when empty, `phone` is `""` for TOTP factors. */
export function factorJson(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    created_at: factor.created_at.toISOString(),
    updated_at: factor.updated_at.toISOString(),
    status: factor.status,
    ...(factor.friendly_name ? { friendly_name: factor.friendly_name } : {}),
    factor_type: factor.factor_type,
    phone: factor.phone ?? '',
    last_challenged_at: factor.last_challenged_at?.toISOString() ?? null,
  };
}

function identityJson(identity: IdentityRow): Record<string, unknown> {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: identity.last_sign_in_at?.toISOString() ?? null,
    created_at: identity.created_at.toISOString(),
    updated_at: identity.updated_at.toISOString(),
    email: identity.email,
  };
}
